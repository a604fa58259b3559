"""Provider tokens recognised by their own prefix or marker (``screening/providers.py``).

The shapes below are written from the providers' published token formats (as public secret-scanner
rule sets match them), not read from the module, so a rule that drifts from them fails here.
"""

from __future__ import annotations

import ast
import base64
import random
import string

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tact_memory.screening import providers
from tact_memory.screening.credentials import KINDS, find_secret

from .test_credentials import PROSE_WORDS, body, coincides_with_a_kind_name, shares_a_run

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"
UPPER_DIGITS = string.ascii_uppercase + string.digits
BASE64 = ALNUM + "+/"


def token(*parts: str | tuple[str, int] | tuple[str, int, int]) -> st.SearchStrategy[tuple[str, str]]:
    """A token of literal parts and random runs (``(alphabet, size)`` or ``(alphabet, least,
    most)``), drawn as ``(token, its random runs joined by NUL)``: what an echo could repeat."""
    drawn: list[st.SearchStrategy[tuple[str, str]]] = []
    for part in parts:
        if isinstance(part, str):
            drawn.append(st.just((part, "")))
        else:
            alphabet, least, *most = part
            # A short part is any draw; a long one is checked as a token body (not a placeholder).
            short = st.text(alphabet, min_size=least, max_size=most[0] if most else least)
            run = short if least < 8 else body(alphabet, least, most[0] if most else least)
            drawn.append(run.map(lambda text: (text, text)))
    return st.tuples(*drawn).map(lambda got: ("".join(t for t, _ in got), "\0".join(r for _, r in got if r)))


UUID = ((HEX, 8), "-", (HEX, 4), "-", (HEX, 4), "-", (HEX, 4), "-", (HEX, 12))


TOKENS: dict[str, st.SearchStrategy[tuple[str, str]]] = {
    "twilio_key": token("SK", (HEX + "ABCDEF", 32)),
    "heroku_key": token("HRKU-", (URLSAFE, 60)),
    "team_token": token("tmt_", (URLSAFE, 43)),
    "azure_client_secret": token((ALNUM, 3), (string.digits, 1), "Q~", (ALNUM + "_~.-", 31, 34)),
    "alibaba_key": token("LTAI", (ALNUM, 12, 20)),
    "onepassword_key": st.one_of(
        token("A3-", (UPPER_DIGITS, 6), "-", (UPPER_DIGITS, 11), "-", (UPPER_DIGITS, 5), "-", (UPPER_DIGITS, 5), "-", (UPPER_DIGITS, 5)),
        token("ops_eyJ", (BASE64, 250, 400)),
    ),
    "adobe_secret": token("p8e-", (ALNUM, 32)),
    "artifactory_token": st.one_of(token("AKCp", (ALNUM, 69)), token("cmVmd", (ALNUM, 59))),
    "clickhouse_key": token("4b1d", (ALNUM, 38)),
    "clojars_token": token("CLOJARS_", (string.ascii_lowercase + string.digits, 60)),
    "cloudflare_key": token("v1.0-", (HEX, 24), "-", (HEX, 146)),
    "defined_networking_token": token("dnkey-", (UPPER_DIGITS, 26), "-", (UPPER_DIGITS, 52)),
    "dropbox_token": st.one_of(token("sl.", (URLSAFE, 135, 160)), token((ALNUM, 11), "AAAAAAAAAA", (URLSAFE, 43))),
    "duffel_token": st.one_of(token("duffel_test_", (URLSAFE, 43)), token("duffel_live_", (URLSAFE, 43))),
    "dynatrace_token": token("dt0c01.", (UPPER_DIGITS, 24), ".", (UPPER_DIGITS, 64)),
    "easypost_key": st.one_of(token("EZAK", (ALNUM, 54)), token("EZTK", (ALNUM, 54))),
    "facebook_token": st.one_of(
        token("EAAC", (ALNUM, 100, 200)),
        # An app access token: the app's id, "|" or "%7C", and the app's secret (with a letter, as
        # thirty-two random hex digits all but always have).
        *(token((string.digits, 15, 16), bar, (HEX, 32)).filter(lambda t: any(c.isalpha() for c in t[0][-32:])) for bar in ("|", "%7C")),
    ),
    "flutterwave_key": token("FLWSECK_TEST-", (HEX, 32), "-X"),
    "flyio_token": st.one_of(token("fo1_", (URLSAFE, 43)), token("fm2_", (BASE64, 100, 300))),
    "frameio_token": token("fio-u-", (URLSAFE, 64)),
    "harness_token": token("pat.", (URLSAFE, 22), ".", (ALNUM, 24), ".", (ALNUM, 20)),
    "infracost_key": token("ico-", (ALNUM, 32)),
    # A key that happens to start with YC or AQVN is also a Yandex token's shape (refused all the same, named Yandex).
    "maxmind_key": token((ALNUM, 6), "_", (ALNUM, 29), "_mmk").filter(lambda t: not t[0].startswith(("YC", "AQVN"))),
    "openshift_token": token("sha256~", (URLSAFE, 43)),
    "plaid_token": st.one_of(*(token(f"access-{env}-", *UUID) for env in ("sandbox", "development", "production"))),
    "planetscale_token": st.one_of(*(token(lead, (URLSAFE, 32, 64)) for lead in ("pscale_tkn_", "pscale_pw_", "pscale_oauth_"))),
    "prefect_key": token("pnu_", (ALNUM, 36)),
    "pulumi_token": token("pul-", (HEX, 40)),
    "readme_key": token("rdme_", (string.ascii_lowercase + string.digits, 70)),
    "rubygems_key": token("rubygems_", (HEX, 48)),
    "scalingo_token": token("tk-us-", (URLSAFE, 48)),
    "brevo_key": st.one_of(token("xkeysib-", (HEX, 64), "-", (ALNUM, 16)), token("xsmtpsib-", (HEX, 64), "-", (ALNUM, 16))),
    "shippo_token": token("shippo_live_", (HEX, 40)),
    "twitter_token": st.one_of(
        *(token("A" * count, (ALNUM.replace("A", ""), 1), (ALNUM + "%", 79, 99)) for count in (21, 22, 23))
    ),
    "crates_token": token("cio", (ALNUM, 32)).filter(lambda t: any(c.isdigit() for c in t[0][3:])),
    "honeycomb_key": st.one_of(token("hcaik_", (ALNUM, 58)), token("hcaic_", (ALNUM, 58))),
    "neon_key": token("napi_", (string.ascii_lowercase + string.digits, 64)),
    "typeform_token": token("tfp_", (URLSAFE, 59)),
    "hubspot_token": st.one_of(
        *(token(f"pat-{region}-", (HEX, 8), "-", (HEX, 4), "-", (HEX, 4), "-", (HEX, 4), "-", (HEX, 12)) for region in ("na1", "eu1"))
    ),
    "netlify_token": token("nfp_", (ALNUM, 36, 40)).filter(lambda t: any(c.isdigit() for c in t[0][4:])),
    "dbt_cloud_token": st.one_of(token("dbtc_", (URLSAFE, 40, 60)), token("dbtu_", (URLSAFE, 40, 60))).filter(
        lambda t: any(c.isdigit() for c in t[0][5:])
    ),
    "tencent_key": token("AKID", (ALNUM, 32)).filter(lambda t: any(c.isdigit() for c in t[0][4:])),
    "yandex_token": st.one_of(token("AQVN", (URLSAFE, 35, 38)), token("YC", (URLSAFE, 38))),
    "lob_key": token("live_", (HEX, 35)),
    "mailchimp_key": token((HEX, 32), "-us", (string.digits, 1, 2)),
    "mapbox_token": token("sk.eyJ", (URLSAFE, 60), ".", (URLSAFE, 22)),
    "sourcegraph_token": token("sgp_", (HEX, 16), "_", (HEX, 40)),
    "airtable_token": token("pat", (ALNUM, 14), ".", (HEX, 64)),
    "docker_token": token("dckr_pat_", (URLSAFE, 27)),
    "buildkite_token": token("bkua_", (HEX, 40)),
    "langsmith_key": token("lsv2_pt_", (HEX, 32), "_", (HEX, 10)),
    "supabase_key": st.one_of(token("sbp_", (HEX, 40)), token("sb_secret_", (URLSAFE, 20, 60))),
    "pinecone_key": token("pcsk_", (ALNUM + "_", 40, 100)),
    "tailscale_key": token("tskey-auth-", (ALNUM, 20, 60)),
    "contentful_token": token("CFPAT-", (URLSAFE, 43)),
    "posthog_key": token("phx_", (ALNUM, 43)),
    "figma_token": token("figd_", (URLSAFE, 40, 60)),
    "circleci_token": token("CCIPAT_", (ALNUM, 22), "_", (HEX, 40)),
    "resend_key": token("re_", (ALNUM, 8), "_", (ALNUM, 24)).filter(lambda t: any(c.isdigit() for c in t[0])),
    "render_key": token("rnd_", (ALNUM, 32)),
    "nvidia_key": token("nvapi-", (URLSAFE, 64)),
    "elevenlabs_key": token("sk_", (HEX, 48)),
    "bedrock_key": st.one_of(
        token("bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t", (BASE64, 40, 400)),
        token("ABSKQmVkcm9ja0FQSUtleS1", (BASE64, 100, 200)),
    ),
    "aiven_token": token("AVNS_", (ALNUM + "_", 11, 40)),
    "castai_key": token("castai_v1_", (ALNUM, 64), "_", (ALNUM, 8)),
    "braintree_token": st.one_of(*(token(f"access_token${env}$", (string.ascii_lowercase + string.digits, 16)) for env in ("production", "sandbox"))),
    "chieftools_token": st.one_of(*(token(lead, (ALNUM, 30, 80)) for lead in ("ctp_", "cto_", "ctr_"))),
    "settlemint_token": st.one_of(*(token(lead, (ALNUM, 16)) for lead in ("sm_pat_", "sm_aat_", "sm_sat_"))),
    "intra42_secret": st.one_of(token("s-s4t2ud-", (HEX, 64)), token("s-s4t2af-", (HEX, 64))),
    "django_secret_key": token("django-insecure-", (string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)", 50)),
    "nuget_key": token("oy2", (string.ascii_lowercase + string.digits, 43)),
    "octopus_deploy_key": token("API-", (UPPER_DIGITS, 26)).filter(
        lambda t: any(c.isdigit() for c in t[0][4:]) and any(c.isalpha() for c in t[0][4:])
    ),
    "azure_devops_token": token(
        (ALNUM, 52), "JQQJ9", ("9DH", 1), (ALNUM, 1), ("ABCDEFGHIJKL", 1), (ALNUM, 16), "AZDO", (ALNUM, 4)
    ),
    "azure_key": token(
        (ALNUM, 52), "JQQJ9", ("9DH", 1), (ALNUM, 1), ("ABCDEFGHIJKL", 1), (ALNUM, 16), ("ACEGSW", 1), (ALNUM, 7)
    ),
    "authress_key": st.one_of(
        *(
            token(lead, (ALNUM, 5, 30), ".", (ALNUM, 4, 6), ".acc-", (HEX + "-", 10, 32), ".", (BASE64 + "_=-", 30, 120))
            for lead in ("sc_", "ext_", "scauth_", "authress_")
        )
    ),
    "sonar_token": st.one_of(*(token(lead, (HEX, 40)) for lead in ("squ_", "sqp_", "sqa_"))),
    # Random runs of letters and digits, so with a lower-case letter, a capital and a digit.
    "datafactory_key": token("IR@", *UUID, "@adf-", (string.ascii_lowercase, 3, 12), "@", ("abcdefghijklmnopqrstuvwxyz", 2, 4), "@", (BASE64, 43), "="),
    "sidekiq_credentials": st.one_of(
        token("BUNDLE_GEMS__CONTRIBSYS__COM=", (HEX, 8), ":", (HEX, 8)),
        token('BUNDLE_ENTERPRISE__CONTRIBSYS__COM: "', (HEX, 8), ":", (HEX, 8), '"'),
        token("bundle config enterprise.contribsys.com ", (HEX, 8), ":", (HEX, 8)),
    ),
    # A Vault service token from before 1.10: letters and digits, a digit among them.
    # Tavily's random part has a digit (the rule asks for one, so "tvly-" and a word is kept).
    "tavily_key": st.one_of(token("tvly-", (ALNUM, 32)), token("tvly-dev-", (ALNUM, 32))).filter(
        lambda t: any(c.isdigit() for c in t[0][t[0].rindex("-") :])
    ),
    "firecrawl_key": token("fc-", (HEX, 32)),
    "together_key": token("tgp_v1_", (URLSAFE, 43)),
    "launchdarkly_key": token("sdk-", *UUID),
    "firebase_fcm_key": token("AAAA", (URLSAFE, 7), ":APA91b", (URLSAFE, 134)),
    "vault_token": token("s.", (ALNUM, 24)).filter(
        lambda t: any(c.isdigit() for c in t[0][2:]) and any(c.isalpha() for c in t[0][2:])
    ),
}


def test_every_provider_kind_is_generated_and_described() -> None:
    kinds = {kind for kind, *_ in providers.PREFIXED} | {kind for kind, _ in providers.MARKED}
    assert set(providers.KINDS) <= kinds <= set(KINDS)
    assert set(providers.KINDS) - {"groq_key", "xai_key", "perplexity_key", "replicate_token", "mailgun_key", "linear_key", "postman_key", "teams_webhook"} <= set(TOKENS)
    assert all(description.startswith(("a ", "an ")) for description in providers.KINDS.values())


@pytest.mark.parametrize("kind", sorted(TOKENS))
@settings(max_examples=40)
@given(data=st.data())
def test_a_provider_token_in_prose_is_refused_without_echo(kind: str, data: st.DataObject) -> None:
    secret, random_runs = data.draw(TOKENS[kind])
    before = " ".join(data.draw(st.lists(st.sampled_from(PROSE_WORDS), max_size=4)))
    after = " ".join(data.draw(st.lists(st.sampled_from(PROSE_WORDS), max_size=4)))
    found = find_secret(f"{before} {secret} {after}")
    assert found == kind
    assume(not any(coincides_with_a_kind_name(run) for run in random_runs.split("\0")))
    assert not any(shares_a_run(found, run) for run in random_runs.split("\0"))


@pytest.mark.parametrize("kind", sorted(TOKENS))
@settings(max_examples=40)
@given(data=st.data())
def test_a_provider_token_inside_a_longer_word_is_not_taken_for_one(kind: str, data: st.DataObject) -> None:
    # Glued to letters on both sides the run is part of some longer identifier, not a token.
    secret, _ = data.draw(TOKENS[kind])
    found = find_secret(f"see xq{secret}qz for details")
    assert found != kind


@pytest.mark.parametrize(
    "text",
    [
        "SK" + "0123456789abcdef" * 2 + "0",  # one hex digit too many
        "SK" + "0123456789abcdef0123456789abcde",  # one too few
        "the SKU list is SKABCDEFGHIJKLMNOPQRSTUVWXYZ012345 in the sheet",  # not hex
        "we run t1.micro and t1.2xlarge for the builders",
        "the ico-sphere mesh and the pul-down menu",
        "re_compile_pattern_for_the_tokenizer_module is slow",
        "live_reload_for_the_development_server_is_enabled_now",
        "test_0123456789_abcdef is the fixture name",
        "the pat.json file and sat.yaml config",
        "sha256~abc is not a token",
        "the access-sandbox-env variable is documented",
        "A3-PAPER is the print size; A3-FAKE12 is a part number",
        "LTAI is the ticker; LTAIxx",
        "the YC batch of 2024 and YCombinator",
        "EAA is the European Aviation Authority",
        "the fm2_config flag and the fo1_ prefix",
        "Q~ appears in the math notation x8Q~y",
        "focus-us21 and 0123456789abcdef-us-east-1",
        "a 4b1d" + "0123456789abcdef" * 2 + " commit-ish hash",
        "sl. 3 of the lecture notes",
        "the tskey-auth- prefix marks a Tailscale auth key",
        "sgp_ tokens are Sourcegraph's, CFPAT- tokens Contentful's, dckr_pat_ tokens Docker's",
        "SK" + "x" * 32,
        "sbp_" + "0" * 40,
        "HRKU-" + "A" * 60,
        "T3BlbkFJ is base64 for OpenAI; keys carry it after sk-",
        "sk-learn is a common typo of scikit-learn",
        "s.ABCDEFGHIJKLMNOPQRSTUVWX is 24 letters, no digit",
        "os.path.join and self.s.encode are code; s.0123456789012345678901234 is 25 digits",
        "timestamps.1700000000123456abcdefgh and hvs. tokens",
        "the sk-None- prefix marks a key without a project",
        "base64 of a note on OpenAI: Tm90ZTogT3BlbkFJIGtleXMgYXJlIHJvdGF0ZWQ",
        # Near misses from the public rules' own negative tests (gitleaks, detect-secrets).
        "AVNS12345678 is not an aiven token",
        "key = test_v1_2cb5a70064f60ba2f5507bcbb02938a5a0483bf2a9742d08c5c274c827c9f6ea_037192b5",
        "braintree has no access_token$staging$abcd1234efgh5678 environment",
        "nvapi-" + "0123456789abcdef" * 3 + "0123456789abcde is one short",
        "sk_" + "0123456789abcdef" * 3 + "0 is one hex digit too many",
        "the AVNS_ prefix, the nvapi- prefix and the django-insecure- prefix are documented",
        "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t is how a short-term key starts",
        "ctp_, cto_ and ctr_ mark Chief Tools tokens; sm_pat_ marks SettleMint's",
        "the ratio 1//0 is undefined",
        "oy2 is a prefix; oy2short is no key",
        "base64 of JSON: ZXlKaGJHY2lPaUpJVXpJMU5pSjkK holds a header and no payload",
        "AKIDEXAMPLE is the Tencent docs' placeholder", "the dbt_project.yml and dbtc_ prefix", "nfp_readme_examples_here_for_everyone_ok",
        "pat-na1- then a UUID is HubSpot's shape",
    ],
)
def test_near_misses_and_mentions_are_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("d=xoxd-%2FFAKE0EXAMPLE0slack0d0cookie0value0FAKE0EXAMPLE%2B0123456789%3D", "slack_token"),
        ("d=xoxd-%2BFAKE0EXAMPLE0slack0d0cookie0value0FAKE0EXAMPLE%2F0123456789", "slack_token"),
        ("https://fakeexample.blob.core.windows.net/c/b?sv=2022-11-02&sig=%2BFAKE0EXAMPLE0sas0sig0123%3D", "signed_url"),
        ("https://fakeexample.blob.core.windows.net/c/b?sp=r&sig=%2FFAKE0EXAMPLE0sas0sig0123%3D&se=2030", "signed_url"),
        ("Bearer " + "A" * 22 + "%2BFAKE0EXAMPLE0twitter0bearer" + "0123456789" * 6, "twitter_token"),
    ],
)
def test_a_token_that_starts_with_a_percent_encoded_byte_is_refused(text: str, kind: str) -> None:
    # Base64 in a URL or a cookie starts with %2F or %2B one time in thirty-two: not a template.
    assert find_secret(text) == kind


def test_random_base64_and_hashes_are_kept() -> None:
    # Several prefixes are made of base64 letters (EAAA, SK, YC, AKCp); a base64 blob or a hash
    # holds such letters by chance, and must not be taken for a token.
    rng = random.Random(20261203)
    found = []
    for _ in range(1500):
        blob = base64.b64encode(rng.randbytes(rng.choice([32, 96, 256, 384]))).decode()
        digest = rng.randbytes(32).hex()
        for text in (
            f"the deploy key is ssh-rsa AAAAB3NzaC1yc2E{blob} ci@example",
            f"integrity sha512-{blob}",
            f"commit {digest[:40]} and sha256 {digest}",
        ):
            if (kind := find_secret(text)) is not None:
                found.append((kind, text))
    assert found == []


@pytest.mark.parametrize("before", ["FB_PAGE_ACCESS=", "?access=", "token: ", "("])
def test_a_token_that_base64_could_hold_is_found_after_an_equals_sign(before: str) -> None:
    token = "EAAC" + "FAKEexample0123456789" * 6
    assert find_secret(f"{before}{token}&x=1") == "facebook_token"


def test_base64_of_sparse_binary_is_kept() -> None:
    # Base64 writes zero bytes as runs of "A" (a Dropbox or X token's marker) and has the letters
    # of EAA (Meta, Square); a data URI or a fixture of mostly-zero bytes holds them by chance.
    rng = random.Random(7)
    found = []
    for _ in range(600):
        data = bytearray()
        while len(data) < rng.choice([48, 300, 700]):
            data += bytes(rng.randint(8, 40)) if rng.random() < 0.3 else rng.randbytes(rng.randint(4, 30))
        for text in (
            "favicon: data:image/x-icon;base64," + base64.b64encode(bytes(data)).decode(),
            "fixture " + base64.b64encode(bytes(16) + rng.randbytes(32)).decode(),
        ):
            if (kind := find_secret(text)) is not None:
                found.append((kind, text[:80]))
    assert found == []


@pytest.mark.parametrize("prefix", ["0000000012A", "x7QpZr2mLkA", "b4AAAAAAAAA"])
def test_a_dropbox_token_whose_eleventh_character_is_an_a_is_found(prefix: str) -> None:
    # The published shape allows any letter or digit before the ten "A"s, "A" included; only
    # eleven "A"s there (base64 of zero bytes) are not a token's.
    token = prefix + "A" * 10 + "kR3vX9mQ2pL7wN5tY8zB4cD6fH1jG0sE-_aUoIeTyWq"
    assert find_secret(f"the token {token} works") == "dropbox_token"
    assert find_secret(f"fixture {'A' * 21}kR3vX9mQ2pL7wN5tY8zB4cD6fH1jG0sE-_aUoIeTyWq works") is None


def test_the_module_is_data_only() -> None:
    with open(providers.__file__, encoding="utf-8") as file:
        tree = ast.parse(file.read())
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert [getattr(node, "module", None) for node in imports] == ["__future__"]


def test_a_maxmind_key_in_a_yandex_tokens_shape_is_refused_all_the_same() -> None:
    assert find_secret("key YC0a1B_abcdefghijklmnopqrstuvwxyzABC_mmk here") in ("maxmind_key", "yandex_token")
    assert find_secret("key AQVN9z_abcdefghijklmnopqrstuvwxyzABC_mmk here") in ("maxmind_key", "yandex_token")


@settings(max_examples=200)
@given(st.from_regex(r"\Atmt_[A-Za-z0-9_-]{43}\Z"), st.sampled_from(["", "CI pushes with ", "token: ", "`"]))
def test_the_team_services_own_tokens_are_refused_in_any_record(token: str, before: str) -> None:
    """A writer's token stored in the memory every reader of the namespace sees would hand out its
    rights: the shape :mod:`tact_memory.team.tokens` issues (and checks) is a secret kind of its own."""
    from tact_memory.team import tokens

    assert tokens._TOKEN_SHAPE.fullmatch(token)
    assume(len(set(token[4:])) >= 4)  # a body of fewer distinct characters is a placeholder
    assert find_secret(f"{before}{token} for the deploy") == "team_token"


def test_a_token_as_the_service_issues_it_is_refused() -> None:
    import secrets

    from tact_memory.team.tokens import TOKEN_PREFIX

    for _ in range(200):
        assert find_secret(f"use {TOKEN_PREFIX}{secrets.token_urlsafe(32)} in CI") == "team_token"


@settings(max_examples=100)
@given(st.binary(min_size=12, max_size=60), st.binary(min_size=12, max_size=200), st.binary(min_size=0, max_size=40))
def test_a_jwt_wrapped_in_base64_is_refused(header: bytes, payload: bytes, signature: bytes) -> None:
    # Whichever third of a base64 group the payload's "." falls on, its "eyJ" shows through.
    parts = [base64.urlsafe_b64encode(part).rstrip(b"=") for part in (header, payload, signature)]
    jwt = b"eyJ" + parts[0] + b".eyJ" + parts[1] + b"." + parts[2]
    wrapped = base64.b64encode(jwt).decode()
    assume(len(set(wrapped)) >= 4)
    assert find_secret(f"session cookie value (base64) {wrapped} from the FAKE browser") == "jwt"


# Three shapes, each from its publisher or a maintained scanner's rule:
# - Azure DevOps personal access tokens in the 84-character format: Microsoft's own scanner
#   (microsoft/security-utilities, the "common annotated security key" SEC101/200 and its layout
#   notes) gives fifty-two random base62 characters, the signature JQQJ9, a key-kind character,
#   a year character and a month letter (A to L), sixteen reserved characters, then the
#   provider's four-letter signature (AZDO for Azure DevOps) and four checksum characters.
# - Octopus Deploy API keys: gitleaks' octopus-deploy-api-key rule, "API-" and twenty-six capitals
#   or digits; this screen also wants a digit and a letter among them.
# - Authress service client access keys: Authress's secrets-scanning page publishes the regular
#   expression: sc_, ext_, scauth_ or authress_, the client id (five to thirty letters and
#   digits), the key id (four to six), "acc-" or "acc_" and the account id, then the private key
#   in base64 (thirty to a hundred and twenty characters), the parts joined by dots.
ADO_PAT = "FAKEexample0AzureDevOps0pat0Q7wX2mL9vR4tY8nB3kD6hJ1c" + "JQQJ99BCACAAAAAZg6lNAAASAZDO1Vba"
# The same layout with another provider's signature, in the short and the long (88-character) form.
AZURE_KEY = ADO_PAT.replace("AZDO", "ACOG")
AZURE_LONG_KEY = AZURE_KEY + "Zq=="
OCTOPUS_KEY = "API-FAKE0EXAMPLE7Q2W9R4T1Y3U5I"
AUTHRESS_KEY = "sc_FAKEexample1.EXa1.acc-fake0123456.MC4CAQAwBQYDK2VwBCIEIFAKEexample0123456789abcdefXYZ"


@pytest.mark.parametrize(
    ("secret", "kind"),
    [
        (ADO_PAT, "azure_devops_token"),
        (AZURE_KEY, "azure_key"),
        (AZURE_LONG_KEY, "azure_key"),
        (OCTOPUS_KEY, "octopus_deploy_key"),
        (AUTHRESS_KEY, "authress_key"),
    ],
)
@pytest.mark.parametrize("form", ["{}", "CI pulls with {} since Monday.", '{{"settings": {{"key": "{}"}}}}', "export X={}"])
def test_a_published_shape_is_refused_alone_in_prose_and_in_json(secret: str, kind: str, form: str) -> None:
    assert len(ADO_PAT) == 84 and len(OCTOPUS_KEY) == 30
    assert find_secret(form.format(secret)) == kind


@pytest.mark.parametrize(
    "text",
    [
        # Azure keys: one short, one long, a provider signature that starts with a digit, a long
        # form without its "==", one inside a base64 run, a placeholder run, a month past L, glued
        # into a longer word.
        ADO_PAT[:-1],
        ADO_PAT + "Q",
        AZURE_KEY.replace("ACOG", "0COG"),
        AZURE_KEY + "Zq",
        AZURE_KEY + "Zq=",
        "+" + AZURE_KEY,
        "x" * 52 + ADO_PAT[52:],
        ADO_PAT.replace("JQQJ99BC", "JQQJ99BM"),
        "id" + ADO_PAT,
        ADO_PAT[1:],
        "the JQQJ9 signature and the AZDO provider mark are documented",
        # Octopus Deploy: short, long, lower case, no digit, a longer word (GSSAPI-...), a mask.
        OCTOPUS_KEY[:-1],
        OCTOPUS_KEY + "Q",
        OCTOPUS_KEY.lower(),
        "API-ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        'msgstr "GSSAPI-VIRHEKAPSELOINTIMERKKIJONO0."',
        "GSS" + OCTOPUS_KEY,
        "API-" + "A1" * 13,
        "the API-first design and the API-KEY header",
        # Authress: a wrong prefix, a word before the prefix, no account part, a short key, a mask.
        AUTHRESS_KEY.replace("sc_", "sk_", 1),
        "misc" + AUTHRESS_KEY[2:],
        AUTHRESS_KEY.replace(".acc-", ".acx-"),
        AUTHRESS_KEY[: AUTHRESS_KEY.rindex(".") + 20],
        AUTHRESS_KEY[: AUTHRESS_KEY.rindex(".") + 1] + "x" * 40,
        "sc_token.value.acc-attribute.rest is a dotted path",
    ],
)
def test_near_misses_of_the_published_shapes_are_kept(text: str) -> None:
    assert find_secret(text) is None


# Shapes from gitleaks' default rules (config/gitleaks.toml and the rule generators' examples):
# - SonarQube tokens: squ_ (a user's), sqp_ (a project's) or sqa_ (global analysis) and forty hex
#   digits (sonar-api-token).
# - Chargebee API keys: live_ or test_ and 32 to 34 letters and digits (chargebee-access-token).
# - GoCardless access tokens: live_ and forty URL-safe characters (gocardless-api-token); sandbox
#   tokens have the same shape after sandbox_.
# - Meta app access tokens: the app's id of fifteen or sixteen digits, "|" ("%7C" in a URL), and
#   27 to 40 characters (facebook-access-token).
# - Sidekiq Pro and Enterprise gem server credentials: eight hex digits, a colon and eight more,
#   given to Bundler as BUNDLE_GEMS__CONTRIBSYS__COM or BUNDLE_ENTERPRISE__CONTRIBSYS__COM
#   (sidekiq-secret), or with "bundle config gems.contribsys.com", as Sidekiq's wiki gives it.
# - New Relic browser keys: NRJS- and nineteen hex digits; insert keys: NRII- and thirty-two
#   letters, digits and dashes (new-relic-browser-api-token, new-relic-insert-key).
SONAR = "squ_3fa1c0de9b27e4d8a6f05c1b9e7d2a4c8f6b0e13"
CHARGEBEE = "live_FAKEexample0Chargebee7Qw2Er9Ty4Ui1"
GOCARDLESS = "live_FAKEexample0GoCardless7Qw2Er9Ty4Ui1Op3As"
META_APP = "123456789012345|9e107d9d372bb6826bd81d3542a419d6"
SIDEKIQ = "5eb1a4f0:c7d2e93b"
# - Azure Data Factory self-hosted integration runtime keys: IR@, the runtime's GUID, the factory,
#   its region and a 32-byte key in base64, joined by "@" (datafactory-shir-token).
DATAFACTORY = "IR@40040abc-b2f2-4cde-ab39-90a490fedaae@adf-fake-example@we@uUY/w9WdKTdAWWPDMrEEWdAEZIgeXlrO51GtVUR1/BE="
NR_BROWSER = "NRJS-0a1b2c3d4e5f6a7b8c9"
NR_INSERT = "NRII-Fake0example-Insert7key9Qw2Er4t6"
# - Mailgun private API keys: "key-" and 32 lower-case letters and digits. Its documentation's
#   examples are not all hex, so a scanner that reads only hex misses them; "pubkey-" is public.
MAILGUN = "key-fake0example1mailgun2key3q8zb3x4"
# - Agent tools' keys: Tavily's "tvly-" (a "dev-" or "prod-" key too) and 32 letters and digits,
#   Firecrawl's "fc-" and 32 hex digits, Together AI's "tgp_v1_" and 43 URL-safe characters, a
#   LaunchDarkly server-side SDK key ("sdk-" and a UUID).
TAVILY = "tvly-Fake0Example1Tavily2Key3Q8zb3xL9"
FIRECRAWL = "fc-fa4e0e8a3b1e2f7c9d6a5b4c3d2e1f0a"
TOGETHER = "tgp_v1_Fake0Example1Together2Key3Q8zb3xL9mVpR4tK"
LAUNCHDARKLY = "sdk-fa4e0e8a-3b1e-4f7c-9d6a-5b4c3d2e1f0a"
# - A Firebase Cloud Messaging legacy server key: "AAAA", seven characters, ":APA91b", 134 more.
FCM = "AAAAFake0Ex:APA91b" + ("FakeExample0Fcm1Server2Key3-Q8zb_" * 5)[:134]


@pytest.mark.parametrize(
    ("secret", "name", "kind"),
    [
        (SONAR, "SONAR_TOKEN", "sonar_token"),
        (SONAR.replace("squ_", "sqp_"), "SONAR_TOKEN", "sonar_token"),
        (SONAR.replace("squ_", "sqa_"), "SONAR_TOKEN", "sonar_token"),
        (META_APP, "FACEBOOK_APP_TOKEN", "facebook_token"),
        ("1234567890123456|Fake0example-App7Token_9Qw2", "FACEBOOK_APP_TOKEN", "facebook_token"),
        (NR_BROWSER, "NEW_RELIC_BROWSER_KEY", "newrelic_key"),
        (NR_INSERT, "NEW_RELIC_INSERT_KEY", "newrelic_key"),
        (DATAFACTORY, "SHIR_AUTH_KEY", "datafactory_key"),
        (MAILGUN, "MAILGUN_API_KEY", "mailgun_key"),
        ("key-0123456789abcdef0123456789abcdef", "MAILGUN_API_KEY", "mailgun_key"),
        (TAVILY, "TAVILY_API_KEY", "tavily_key"),
        (TAVILY.replace("tvly-", "tvly-dev-"), "TAVILY_API_KEY", "tavily_key"),
        (FIRECRAWL, "FIRECRAWL_API_KEY", "firecrawl_key"),
        (TOGETHER, "TOGETHER_API_KEY", "together_key"),
        (LAUNCHDARKLY, "LD_SDK_KEY", "launchdarkly_key"),
        (FCM, "FCM_SERVER_KEY", "firebase_fcm_key"),
    ],
)
@pytest.mark.parametrize("form", ["{secret}", "{name}={secret}", "The deploy job reads {secret} from the vault since Monday."])
def test_a_gitleaks_shape_is_refused_alone_after_its_name_and_in_a_sentence(secret: str, name: str, kind: str, form: str) -> None:
    assert find_secret(form.format(secret=secret, name=name)) == kind


def test_a_meta_app_token_in_a_url_is_refused() -> None:
    assert find_secret("GET /debug_token?input_token=x&token=" + META_APP.replace("|", "%7C")) == "facebook_token"
    assert find_secret("see " + META_APP.replace("|", "%7C") + " in the log") == "facebook_token"


@pytest.mark.parametrize(
    "text",
    [
        f"export BUNDLE_GEMS__CONTRIBSYS__COM={SIDEKIQ}",
        f'BUNDLE_ENTERPRISE__CONTRIBSYS__COM: "{SIDEKIQ}"',
        f"export BUNDLE_ENTERPRISE__CONTRIBSYS__COM = {SIDEKIQ} && bundle install",
        f"bundle config --local gems.contribsys.com {SIDEKIQ}",
        f"Run bundle config enterprise.contribsys.com {SIDEKIQ} once on the build box.",
    ],
)
def test_sidekiq_gem_server_credentials_are_refused(text: str) -> None:
    assert find_secret(text) == "sidekiq_credentials"


@pytest.mark.parametrize(
    "text",
    [
        # Keys gitleaks finds by the service named before them, under a name of that service alone.
        "bittrex_key: u0psuu13fk9hk9y9mgo4dh7ulbajgmfx",
        "merakiKey = 'b38d41039ebd67d94c7a883569462d891585361f'",
        "kraken_key: MK/Ye9FZ1wUVl4nuYV+d8fNYvvDbzDZST6IaXqA2h9Uz0+T1SaQ6dDwxlGejkc5bJFIoxSLivuGvIL6P/8odNX==",
        "launchdarkly_key = api-4f2c9a1e-7b3d-4e8f-9a6c-2d1e0f3b5a7c",  # an API access token (an SDK key has its own kind)
        "Sendbird key: 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e",
        # SonarQube's older tokens have no prefix and are given as sonar.login.
        "sonar.login=641a659d51782ed8ee0ca58f0d01b44488cc527f",
    ],
)
def test_a_key_under_the_name_of_a_service_gitleaks_knows_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # The model and agent-tool services agents are given keys for, named alone before "key".
        "wandb key: 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0c",
        "DEEPGRAM_KEY=1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0c",
        'deepgram_key = "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0c"',
        "serper key: 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e",
        "togetherai_key: Xk9mQ2vLp7ZrQwErTyXk9mQ2vLp7ZrQwErTyXk9m",
        "jinaKey = 'jina_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6dXk9mQ2vLp7'",
    ],
)
def test_a_key_under_the_name_of_a_model_or_agent_tool_service_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # Alerting, on-call and error-tracking services' keys, named alone before "key".
        "PagerDuty key: 8f3a2b91c47d1e09a3f50c5b8e2d718f",
        "PAGERDUTY_KEY=8f3a2b91c47d1e09a3f50c5b8e2d718f",
        'opsgenieKey = "8f3a2b91-c47d-1e09-a3f5-0c5b8e2d718f"',
        "rollbar_key: 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c",
        "the Bugsnag key is 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c",
        "honeybadger key = hbp_Xk9mQ2vLp7ZrQwErTyXk9mQ2vLp7ZrQwE",
        "Raygun key: Xk9mQ2vLp7ZrQwErTyXk9m",
    ],
)
def test_a_key_under_the_name_of_an_alerting_or_error_tracking_service_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text", ["the PagerDuty key escalation policy", "rollbar key: see the vault", "loggly key fields are indexed", "opsgenie_key: null"]
)
def test_an_alerting_service_s_key_without_a_value_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text", ["the wandb key was rotated", "wandb key: see the vault", "together key points", "the qdrant key field is indexed"]
)
def test_such_a_service_s_key_without_a_value_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # SonarQube: one hex digit short, one too many, inside a longer word, not hex, a placeholder.
        SONAR[:-1],
        SONAR + "0",
        "xsqu_" + SONAR[4:],
        "squ_" + "g" * 40,
        "squ_" + "0" * 40,
        # Meta: an id one digit short or long, a row of a table, a version, a word of letters.
        "12345678901234|9e107d9d372bb6826bd81d3542a419d6",
        "12345678901234567|9e107d9d372bb6826bd81d3542a419d6",
        "| 123456789012345 | 9e107d9d372bb6826bd81d3542a419d6 |",
        "v1.123456789012345|9e107d9d372bb6826bd81d3542a419d6",
        "123456789012345|abcdefghijklmnopqrstuvwxyzabcdef",
        "ids 1234567890123456|user_Name_2_something_long_here",
        "123456789012345|" + META_APP[16:-1],
        # Sidekiq: no password part, a reference, words, one hex digit short. (Given to "bundle
        # config", a user and password of another shape or host are a gem server's login, refused
        # as any tool's stored credential is: test_tool_arguments.py.)
        "BUNDLE_GEMS__CONTRIBSYS__COM=cafebabe",
        "BUNDLE_GEMS__CONTRIBSYS__COM=${SIDEKIQ_CREDENTIALS}",
        "bundle config gems.contribsys.com USERNAME:PASSWORD",
        "BUNDLE_GEMS__CONTRIBSYS__COM=cafebab:deadbeef",
        # New Relic: a browser key one hex digit short, an insert key one character short.
        NR_BROWSER[:-1],
        NR_INSERT[:-1],
        # Data Factory: one base64 character short, glued to a word, a placeholder key, an address.
        DATAFACTORY[:-2] + "=",
        "x" + DATAFACTORY,
        DATAFACTORY[: DATAFACTORY.rindex("@") + 1] + "A" * 43 + "=",
        "mail IR@example.com about the runtime",
        # Bundler's setting inside a longer name.
        f"MY_BUNDLE_GEMS__CONTRIBSYS__COM={SIDEKIQ}",
        # Mailgun: its public key, a character short or long, no digit, words joined by dashes.
        "pub" + MAILGUN,
        MAILGUN[:-1],
        MAILGUN + "q",
        "key-abcdefghijklmnopqrstuvwxyzabcdef",
        "the key-value-store-for-sessions2 module",
        # crates.io, Honeycomb, Neon: a run a character short, a word that starts with "cio", upper
        # case in a Neon key; X: a run of twenty "A"s, which base64's zero bytes also make.
        "cio" + "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6",
        "ciocciocciocciocciocciocciocciociocc",
        "hcaik_" + "01k4x5jaf9v7sdymjzmxvktd6whp9x2y75jj8y5f8y7aaf1zy6aedg985",
        "napi_" + "Q8ZB3KR2MV7XN1PL4TW9YE6UI0OA5SD3FG8HJ2KL7ZX4CV1BN6MQ9WE3RT5YU7IO",
        "A" * 20 + "MLheAAAAAAA0%2BuSeid%2BULvsea4JtiGRiSDSJSI%3DEUifiRBkKG5E2XzMDjRfl76ZC9Ub0wnz4XsNiRVBChTYbJcE3F",
        # Agent tools: a short run, a placeholder, a word after "fc-", a UUID after another word.
        TAVILY[:-1],
        "tvly-YOURAPIKEYHEREXXXXXXXXXXXXXXXXX",
        FIRECRAWL[:-1],
        "fc-YOUR_API_KEY",
        "tgp_v1_short",
        "build-fa4e0e8a-3b1e-4f7c-9d6a-5b4c3d2e1f0a",
        # FCM: the key without its mark, one inside a base64 run, a short body.
        FCM.replace(":APA91b", ":APA92b"),
        "x+" + FCM,
        FCM[:90],
    ],
)
def test_near_misses_of_the_gitleaks_shapes_are_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "The flaky one is test_shouldReturn404WhenUserIsMissing in UserControllerTest.",
        "void test_handlesUtf8InputWithoutCrashing01() {}",
        "Rename live_updateSubscriptionV2WhenPaymentFails before the release.",
        "The fixture sandbox_Update-Subscription-V2-When-Payment-F1 is stale.",
    ],
)
def test_a_name_after_live_test_or_sandbox_is_kept_where_no_credential_is_named(text: str) -> None:
    """Chargebee's keys (``live_``/``test_`` and 32 to 34 letters and digits) and GoCardless's
    tokens (``live_`` and forty URL-safe characters) are refused under a name, not by shape alone:
    a test's name in camel case with a digit has that shape too."""
    assert find_secret(text) is None
    assert find_secret("CHARGEBEE_API_KEY=live_Fake0example7Chargebee9Qw2Er4Ty") == "credential_assignment"
    assert find_secret("gocardless_key: live_Fake0example-GoCardless7Qw2Er9Ty4Ui1Op3") == "credential_assignment"
