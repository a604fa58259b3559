"""Tests for the client hooks."""
