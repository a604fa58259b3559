"""A credential's value held by a field of its own object, with other fields before it.

A name/value pair often carries more than its name and value: a Postman environment writes
``{"key": "api_key", "type": "secret", "value": "..."}``, an Azure Pipelines parameter ``- name:
dbPassword`` with its ``type`` and ``default``, an HTML form field ``name="password"
type="password" value="..."``. And a credential's name may be the key of an object or a mapping
whose ``value``, ``default`` or ``defaultValue`` holds it: an Azure Resource Manager template's
``"adminPassword": {"type": "securestring", "defaultValue": "..."}``, its parameters file's
``"adminPassword": {"value": "..."}``, a GitHub Actions input's ``default``. Up to four fields
between them are passed over, each a key and a short scalar of the same object; a bracket or a
brace between ends the object, so the fields of another object or a nested one never join a name
to a value. Helm's ``--set env[0].name=...,env[0].value=...`` names one list item's two fields by
paths that differ only in their last part. Values that are empty, references or placeholders, and
ordinary names, are kept.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_configuration_paths import ORDINARY_NAMES, PLAIN_NAMES
from .test_credentials import credential_values

# fields a pair or an object holds besides its name and value, in each format's own spelling
JSON_FIELDS = ['"type": "string"', '"type": "secret"', '"enabled": true', '"description": "the database password"', '"required": false', '"minLength": 12']
YAML_FIELDS = ["type: string", "description: the password the app signs in with", "required: true", "displayName: 'Database password'",
               "Type: String", "NoEcho: true"]  # fmt: skip
# (HTML's boolean attributes stand alone: <input name="password" required value="...">)
XML_FIELDS = ['type="password"', 'id="pw"', 'serializeAs="String"', "autocomplete='off'", "required", "readonly", "disabled"]

PAIR_FORMS = [
    '{{"name": "{n}", {f}"value": "{v}"}}',
    '{{"key": "{n}", {f}"value": "{v}"}}',
    '{{"name": "{n}", {f}"default": "{v}"}}',
    '[{{"Name":"{n}",{f}"Value":"{v}"}}]',
]
YAML_PAIR_FORMS = ["- name: {n}\n  {f}value: {v}", "parameters:\n  - name: {n}\n    {f}default: '{v}'"]
XML_PAIR_FORMS = ['<input name="{n}" {f}value="{v}" />', '<param name="{n}" {f}value="{v}"/>']
OBJECT_FORMS = [
    '"{n}": {{{f}"value": "{v}"}}',
    '"{n}": {{{f}"defaultValue": "{v}"}}',
    '"parameters": {{\n  "{n}": {{\n    {f}"value": "{v}"\n  }}\n}}',
]
YAML_OBJECT_FORMS = ["{n}:\n  {f}default: {v}", "inputs:\n  {n}:\n    {f}default: '{v}'", "Parameters:\n  {n}:\n    {f}Default: {v}"]


def joined(fields: list[str], separator: str) -> str:
    return "".join(field + separator for field in fields)


def texts(name: str, value: str, json: list[str], yaml: list[str], xml: list[str]) -> list[str]:
    """Every form with these fields between the name and the value (YAML's each on a line of its own)."""
    return [
        *(form.format(n=name, f=joined(json, ", "), v=value) for form in PAIR_FORMS + OBJECT_FORMS),
        *(form.format(n=name, f=joined(yaml, "\n  " + ("  " if "    " in form else "")), v=value) for form in YAML_PAIR_FORMS + YAML_OBJECT_FORMS),
        *(form.format(n=name, f=joined(xml, " "), v=value) for form in XML_PAIR_FORMS),
    ]


def fields(choices: list[str]) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(choices), min_size=0, max_size=4)


@given(
    name=st.sampled_from(PLAIN_NAMES),
    value=credential_values,
    json=fields(JSON_FIELDS),
    yaml=fields(YAML_FIELDS),
    xml=fields(XML_FIELDS),
)
def test_a_value_after_other_fields_of_a_pair_or_object_named_for_a_credential_is_refused(
    name: str, value: str, json: list[str], yaml: list[str], xml: list[str]
) -> None:
    for text in texts(name, value, json, yaml, xml):
        assert find_secret(text) == "credential_assignment", text


@given(
    name=st.sampled_from(ORDINARY_NAMES),
    value=credential_values,
    json=fields(JSON_FIELDS),
    yaml=fields(YAML_FIELDS),
    xml=fields(XML_FIELDS),
)
def test_the_same_value_under_an_ordinary_name_is_kept(name: str, value: str, json: list[str], yaml: list[str], xml: list[str]) -> None:
    for text in texts(name, value, json, yaml, xml):
        assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        # Empty values, references, placeholders and settings that are no credential.
        '{"name": "password", "type": "string", "value": ""}',
        '{"name": "password", "type": "string", "value": "${DB_PASSWORD}"}',
        '{"name": "password", "type": "string", "value": "changeme"}',
        '{"key": "api_key", "type": "text", "value": "{{apiKey}}"}',
        '{"key": "Authorization", "type": "text", "value": "Bearer {{token}}"}',
        '"token": {"type": "string", "description": "The API token", "default": "YOUR_TOKEN_HERE"}',
        '"api_key": {"type": "string", "description": "Your key", "default": "<your-api-key>"}',
        '"password": {"type": "string", "format": "password", "writeOnly": true, "default": "********"}',
        '"password": {"type": "string", "minLength": 8, "default": ""}',
        "token:\n  description: 'GitHub token'\n  default: ${{ github.token }}",
        '- name: password\n  default: "{{ vault_password }}"',
        "- name: api_key\n  type: string\n  default: null",
        "password:\n  min_length: 12\n  default: false",
        '<input name="password" type="password" value="" />',
        '<input name="password" type="password" value="{{ form.password.value }}" />',
        # Names that hold a credential's word and say what else they are.
        '{"name": "password_policy", "type": "string", "value": "strict-v2"}',
        '"passwordPolicy": {"minLength": 12, "default": "Strong-2024"}',
        '{"name": "max_password_length", "type": "int", "value": "128"}',
        '"max_tokens": {"type": "integer", "default": 4096, "value": 8192}',
        "token_limit:\n  type: int\n  default: 4096",
        '"tokenizer": {"type": "string", "value": "cl100k_base"}',
        '{"name": "timeout", "type": "int", "default": 30}',
        '"keyboard": {"layout": "us", "default": "qwerty-v2"}',
    ],
)
def test_pairs_and_objects_that_hold_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # Another object's name: the brace that closes it ends the pair.
        '{"name": "password", "valueFrom": "vault"}, {"name": "MODE", "type": "string", "value": "Xk9vQ2mN5pL7wR3t"}',
        '{"name": "password"}, {"type": "string", "value": "Xk9vQ2mN5pL7wR3t"}',
        # A nested object's field is not the named object's own.
        '"password": {"policy": {"value": "Xk9vQ2mN5pL7wR3t"}}',
        "password:\n  policy:\n    value: Xk9vQ2mN5pL7wR3t",
        # A list item starts another pair, and a Kubernetes secretKeyRef names a Secret, not a value.
        "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password\n- name: MODE\n  value: prod-42x",
        # More than four fields between.
        '{"name": "password", "a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "value": "Xk9vQ2mN5pL7wR3t"}',
    ],
)
def test_a_name_and_a_value_of_different_objects_are_not_a_pair(text: str) -> None:
    assert find_secret(text) is None


HELM_FORMS = ["helm install app ./chart --set env[0].name={n},env[0].value={v}", "helm upgrade app . --set-string extraEnv[3].name={n},extraEnv[3].value={v}"]


@given(name=st.sampled_from(PLAIN_NAMES), value=credential_values, form=st.sampled_from(HELM_FORMS))
def test_helm_sets_a_list_items_name_and_value_as_two_paths_of_one_item(name: str, value: str, form: str) -> None:
    assert find_secret(form.format(n=name, v=value)) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "helm install app . --set env[0].name=DB_PASSWORD,env[1].value=Xk9vQ2mN5pL7wR3t",  # another item's value
        "helm install app . --set env[0].name=LOG_LEVEL,env[0].value=Xk9vQ2mN5pL7wR3t",
        "helm install app . --set env[0].name=DB_PASSWORD,env[0].value=changeme",
        "helm install app . --set env[0].name=DB_PASSWORD,env[0].valueFrom.secretKeyRef.name=db",
    ],
)
def test_helm_items_that_hold_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None


ATTRIBUTED_ELEMENTS = [
    '<string name="{n}">{v}</string>', '<entry key="db.{n}">{v}</entry>', '<entry key="{n}" type="string">{v}</entry>',
    '<property name="jdbc.{n}">{v}</property>', '<android:item name="{n}">{v}</android:item>',
    # a Jetty XML's setter, map entry and constructor argument; an element's name in either case
    '<Set name="{n}">{v}</Set>', '<Put name="{n}">{v}</Put>', '<Arg name="{n}">{v}</Arg>', '<Property name="db.{n}">{v}</Property>',
    # a property list's string after the key that names it (an app's Info.plist)
    "<key>{n}</key><string>{v}</string>", "<dict>\n\t<key>{n}</key>\n\t<string>{v}</string>\n</dict>",
]  # fmt: skip


@given(name=st.sampled_from([n for n in PLAIN_NAMES if ":" not in n]), value=credential_values, form=st.sampled_from(ATTRIBUTED_ELEMENTS))
def test_a_settings_element_named_by_its_attribute_is_refused(name: str, value: str, form: str) -> None:
    text = form.format(n=name, v=value)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # A label's text (Android's strings), a reference, another name, and HTML whose text is shown.
        '<string name="password">Password</string>', '<string name="prompt_password">Enter your password</string>',
        '<string name="app_name">Acme-App2</string>', '<entry key="db.password">${DB_PASSWORD}</entry>',
        '<a href="/login" name="password">Forgot-Pw2?</a>', '<option value="1" name="token">Token-2</option>',
        '<label name="password">Passw0rd-hint</label>', '<string name="api_key_label">Your-Key2</string>',
        "<key>NSCameraUsageDescription</key>\n<string>Scan2Codes</string>", "<key>API_KEY</key>\n<string>$(API_KEY)</string>",
        "<key>Password</key><string>Password</string>", "<string>Xk9v2LmQ7t</string>",
        "<key>GADApplicationIdentifier</key>\n<string>ca-app-pub-3940256099942544~1458002511</string>",
        # Jetty's setter of another name, and one given a reference
        '<Set name="title">Welcome Back2024!</Set>', '<Set name="password"><Env name="DB_PASSWORD"/></Set>',
        '<Set name="password"><Property name="jetty.db.password"/></Set>',
    ],
)  # fmt: skip
def test_elements_that_show_text_or_hold_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None
