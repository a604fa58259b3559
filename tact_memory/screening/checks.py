"""The screen's shape checks: what decides, once a rule's pattern has matched, whether it found a
credential.

They come in families, each in its module and each building on the one before: the judgements of a
value that every check shares (:mod:`.value_checks`), the words before a value that name a credential and
the sentences that give one (:mod:`.sentences`), values given to names in code and configuration
(:mod:`.assignments`), the defaults code gives them (:mod:`.defaults`) and what a conditional gives
them (:mod:`.conditionals`), the passwords of a login (:mod:`.logins`) and of a server's session
as a transcript shows it (:mod:`.transcripts`), what a command printed in a terminal's
transcript (:mod:`.printed`), places that always hold a
credential, such as a token, a header or a command-line option (:mod:`.places`), and secrets in the
shape they are issued in, such as a PIN (:mod:`.codes`), and the values an SQL ``INSERT`` gives a
credential's column (:mod:`.inserts`). :class:`Checks` has them all; :mod:`.rules` names one for
each rule.
"""

from __future__ import annotations

from .codes import CodeChecks
from .inserts import InsertChecks
from .places import PlaceChecks
from .printed import PrintedChecks
from .transcripts import TranscriptChecks

__all__ = ["Checks"]


class Checks(TranscriptChecks, PlaceChecks, PrintedChecks, CodeChecks, InsertChecks):
    """Every shape check, with the compiled patterns they use and what one screen has spent."""
