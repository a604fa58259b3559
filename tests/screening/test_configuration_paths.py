""".NET's configuration paths and JSON's name/value pairs name a credential as a plain name does.

ASP.NET Core joins a setting's parts with a colon in one name (``"Smtp:Password"``,
``Configuration["Jwt:Key"]``, ``dotnet user-secrets set``, Azure's app settings), and ECS task
definitions, Kubernetes manifests in JSON and Azure's app settings give each variable as an object
``{"name": "DB_PASSWORD", "value": "..."}`` (CloudFormation as ``Name`` and ``Value``, a stack's
parameters as ``ParameterKey`` and ``ParameterValue``). A value under such a name is judged as
under the name alone: its last part, or a bare ``Key`` with the part before it (``Jwt:Key`` as
``Jwt_Key``).
Paths that are no setting's name (an ARN, a URL) and ordinary names keep the same values.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret
from tact_memory.screening.sections import configuration_path

from .test_credentials import CREDENTIAL_NAMES, NOT_CREDENTIAL_NAMES, credential_values
from .test_sections import OPENERS, OTHERS, values

PLAIN_NAMES = [n for n in CREDENTIAL_NAMES if " " not in n and "." not in n]
ORDINARY_NAMES = [n for n in NOT_CREDENTIAL_NAMES if " " not in n]
PREFIXES = ["Smtp:", "App:Database:", "ConnectionStrings:", "Services:Billing:Stripe:"]
PATH_FORMS = ['"{p}{n}": "{v}"', "'{p}{n}': '{v}'", '  "{p}{n}" : "{v}",', 'builder.Configuration["{p}{n}"] = "{v}";', "{p}{n}={v}"]
PAIR_FORMS = [
    '{{"name": "{n}", "value": "{v}"}}',
    '{{"name":"{n}","value":"{v}"}}',
    '"environment": [{{"name": "{n}", "value": "{v}"}}]',
    '{{\n  "name": "{n}",\n  "value": "{v}"\n}}',
    "{{name: {n}, value: {v}}}",
    '{{"name": "{p}{n}", "value": "{v}"}}',
    # CloudFormation's and AWS's APIs' capitals, and a stack's parameters (file or command line)
    '{{"Name": "{n}", "Value": "{v}"}}',
    "Environment:\n  - Name: {n}\n    Value: {v}",
    '[{{"ParameterKey": "{n}", "ParameterValue": "{v}"}}]',
    "aws cloudformation create-stack --stack-name app --parameters ParameterKey={n},ParameterValue={v}",
]  # fmt: skip


@given(name=st.sampled_from(PLAIN_NAMES), prefix=st.sampled_from(PREFIXES), form=st.sampled_from(PATH_FORMS), value=credential_values)
def test_a_value_under_a_path_that_ends_in_a_credentials_name_is_refused(name: str, prefix: str, form: str, value: str) -> None:
    assert find_secret(form.format(p=prefix, n=name, v=value)) == "credential_assignment"


@given(name=st.sampled_from(PLAIN_NAMES), prefix=st.sampled_from(PREFIXES), form=st.sampled_from(PAIR_FORMS), value=credential_values)
def test_the_value_of_a_json_pair_named_for_a_credential_is_refused(name: str, prefix: str, form: str, value: str) -> None:
    assert find_secret(form.format(p=prefix, n=name, v=value)) == "credential_assignment"


@given(name=st.sampled_from(ORDINARY_NAMES), prefix=st.sampled_from(PREFIXES), form=st.sampled_from(PATH_FORMS + PAIR_FORMS), value=credential_values)
def test_the_same_value_under_an_ordinary_name_is_kept(name: str, prefix: str, form: str, value: str) -> None:
    assert find_secret(form.format(p=prefix, n=name, v=value)) is None


KEY_FORMS = ['"{s}:Key": "{v}"', 'builder.Configuration["{s}:Key"] = "{v}";', "{s}:Key={v}", "az webapp config appsettings set -g rg -n app --settings {s}:Key={v}", '"App:{s}:Key": "{v}"']


@given(form=st.sampled_from(KEY_FORMS), section=st.sampled_from(OPENERS), value=values)
def test_a_bare_key_after_a_part_that_says_what_it_opens_is_refused(form: str, section: str, value: str) -> None:
    assert find_secret(form.format(s=section, v=value)) == "credential_assignment"


@given(form=st.sampled_from(KEY_FORMS), section=st.sampled_from(OTHERS), value=values)
def test_a_bare_key_after_a_part_of_another_kind_is_kept(form: str, section: str, value: str) -> None:
    assert find_secret(form.format(s=section, v=value)) is None


@pytest.mark.parametrize(
    "text",
    [
        # Paths that are no setting's name, and values that are no credential.
        '"arn:aws:secretsmanager:us-east-1:123456789012:secret": "Xk9vQ2mN5pL7wR3t"',
        '"Resource": "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbC123"',
        '"Logging:LogLevel:Default": "Information"',
        '"Smtp:Password": ""', '"Smtp:Password": "${SMTP_PASSWORD}"', '"Smtp:Password": "<your password>"',
        '"Jwt:Key": "${JWT_KEY}"', '"Jwt:Issuer": "https://example.com"', '"Redis:Key": "session"',
        # A pair whose value is empty, a reference or a default, or is read from elsewhere.
        '{"name": "DB_PASSWORD", "value": ""}', '{"name": "DB_PASSWORD", "value": "${DB_PASSWORD}"}',
        '{"name": "DB_PASSWORD", "value": "changeme"}', '{"name": "DB_HOST", "value": "db.internal"}',
        '{"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}}',
        '{"Key": "Environment", "Value": "Prod2024"}', '{"ParameterKey": "InstanceType", "ParameterValue": "t3.micro"}',
        "Tags:\n  - Key: Owner\n    Value: Team-42",
        # A type annotation written without spaces keeps its reading: the name is before the colon.
        'name:str="Xk9vQ2mN5pL7wR3t"',
    ],
)  # fmt: skip
def test_paths_and_pairs_that_hold_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize("text", ['api_key:str="Xk9vQ2mN5pL7wR3t"', 'password:str = "Fak3Pass!2024"', 'let apiKey:String = "Xk9vQ2mN5pL7wR3t"'])
def test_a_credential_annotated_without_spaces_is_still_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


# After a label's colon, a credential's name in upper case with underscores or in camel case is no
# type (a class is capitalised, a built-in holds no credential word): the value after its "=" counts.
@given(
    label=st.sampled_from(["Note", "Staging", "1", "12", "see", "Orders service"]),
    name=st.sampled_from(["DB_PASSWORD_ORDERS", "AUTH_TOKEN_US_EAST", "apiKeyForBilling", "stripeSecretKey"]),
    spaced=st.booleans(),
    value=st.sampled_from(["Tr0ub4dor&3fake", "'fakeQ7rT2xW9mK4pL8'", '"Xk9vQ2mN5pL7wR3t"']),
)
def test_a_credentials_name_after_a_label_is_no_type(label: str, name: str, spaced: bool, value: str) -> None:
    assert find_secret(f"{label}: {name}{' = ' if spaced else '='}{value}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    ['token: Token = Token()', 'auth: ApiKey = ApiKey(value)', 'x: apiKey = getKey()', 'password: SecretStr = SecretStr(raw)',
     'api_key: str = os.environ["API_KEY"]', "self.api_key: apiKey = api_key"],
)  # fmt: skip
def test_a_type_that_names_a_credential_still_annotates(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"Smtp:Password"', True), ("'App:Db:Password'", True), ('"Password"', False), ('"Smtp:Password\'', False),
        ('"arn:aws:kms:us-east-1:123456789012:Password"', False), ('"https://host:Password"', False),
        ('"a::Password"', False), ('"' + "A:" * 9 + 'Password"', False), ('"' + "A:" * 8 + 'Password"', True),
    ],
)  # fmt: skip
def test_a_configuration_path_is_words_joined_by_single_colons_inside_one_pair_of_quotes(text: str, expected: bool) -> None:
    buffer = bytearray(text.encode())
    end = len(buffer) - 1
    assert configuration_path(buffer, buffer.rindex(b"Password"), end) is expected
