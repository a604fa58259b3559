"""Provider tokens that say what they are: a published prefix or marker and a run of a fixed shape.

These are the credentials a screen can recognise on their own, anywhere in a record, without a name
such as ``api_key =`` before them. Their prefixes and lengths are the ones the providers publish
and public secret-scanner rule sets (gitleaks, GitHub secret scanning) match; a shape that varies
between a provider's token generations is given the range they span.

:mod:`.credentials` builds one rule from each row and runs them before the rules that judge a value
by the name it is assigned to, so a Twilio key in ``TWILIO_KEY=SK...`` is reported as a Twilio key.
A row cannot start in the middle of a longer word or end before its run of token characters does,
and a body of fewer than four distinct characters (``SKxxxx...``) is a placeholder, kept as such.

This module is data only; it imports nothing, so the screen stays cheap to import.
"""

from __future__ import annotations

__all__ = ["KINDS", "MARKED", "PREFIXED"]

KINDS = {
    "groq_key": "a Groq API key",
    "xai_key": "an xAI API key",
    "perplexity_key": "a Perplexity API key",
    "replicate_token": "a Replicate API token",
    "mailgun_key": "a Mailgun API key",
    "tavily_key": "a Tavily API key",
    "firecrawl_key": "a Firecrawl API key",
    "together_key": "a Together AI API key",
    "launchdarkly_key": "a LaunchDarkly SDK key",
    "crates_token": "a crates.io API token",
    "honeycomb_key": "a Honeycomb API key",
    "neon_key": "a Neon API key",
    "firebase_fcm_key": "a Firebase Cloud Messaging server key",
    "linear_key": "a Linear API key",
    "postman_key": "a Postman API key",
    "twilio_key": "a Twilio API key",
    "heroku_key": "a Heroku API key",
    "team_token": "a tact-memory team token",
    "azure_client_secret": "a Microsoft Entra ID (Azure AD) client secret",
    "alibaba_key": "an Alibaba Cloud AccessKey ID",
    "onepassword_key": "a 1Password secret key or service account token",
    "adobe_secret": "an Adobe client secret",
    "artifactory_token": "a JFrog Artifactory API key or reference token",
    "clickhouse_key": "a ClickHouse Cloud API secret",
    "clojars_token": "a Clojars deploy token",
    "cloudflare_key": "a Cloudflare Origin CA key",
    "defined_networking_token": "a Defined Networking API token",
    "dropbox_token": "a Dropbox access token",
    "duffel_token": "a Duffel access token",
    "dynatrace_token": "a Dynatrace API token",
    "easypost_key": "an EasyPost API key",
    "facebook_token": "a Meta (Facebook) access token",
    "flutterwave_key": "a Flutterwave secret or encryption key",
    "flyio_token": "a Fly.io access token",
    "frameio_token": "a Frame.io API token",
    "harness_token": "a Harness API key or token",
    "infracost_key": "an Infracost API key",
    "maxmind_key": "a MaxMind license key",
    "teams_webhook": "a Microsoft Teams webhook URL",
    "openshift_token": "an OpenShift user token",
    "plaid_token": "a Plaid access token",
    "planetscale_token": "a PlanetScale token or password",
    "prefect_key": "a Prefect API key",
    "pulumi_token": "a Pulumi access token",
    "readme_key": "a ReadMe API key",
    "rubygems_key": "a RubyGems API key",
    "scalingo_token": "a Scalingo API token",
    "brevo_key": "a Brevo (Sendinblue) API or SMTP key",
    "shippo_token": "a Shippo API token",
    "twitter_token": "an X (Twitter) bearer token",
    "typeform_token": "a Typeform personal access token",
    "hubspot_token": "a HubSpot private app access token",
    "netlify_token": "a Netlify personal access token",
    "dbt_cloud_token": "a dbt Cloud service or personal access token",
    "tencent_key": "a Tencent Cloud SecretId",
    "yandex_token": "a Yandex Cloud key or token",
    "lob_key": "a Lob API key",
    "mailchimp_key": "a Mailchimp API key",
    "mapbox_token": "a Mapbox secret token",
    "sourcegraph_token": "a Sourcegraph access token",
    "airtable_token": "an Airtable personal access token",
    "docker_token": "a Docker Hub access token",
    "buildkite_token": "a Buildkite API token",
    "langsmith_key": "a LangSmith API key",
    "supabase_key": "a Supabase access token or secret key",
    "pinecone_key": "a Pinecone API key",
    "tailscale_key": "a Tailscale auth key or API key",
    "contentful_token": "a Contentful personal access token",
    "posthog_key": "a PostHog personal API key",
    "figma_token": "a Figma personal access token",
    "circleci_token": "a CircleCI personal API token",
    "resend_key": "a Resend API key",
    "render_key": "a Render API key",
    "nvidia_key": "an NVIDIA API key",
    "elevenlabs_key": "an ElevenLabs API key",
    "bedrock_key": "an Amazon Bedrock API key",
    "aiven_token": "an Aiven service password or token",
    "castai_key": "a CAST AI API key",
    "braintree_token": "a Braintree access token",
    "chieftools_token": "a Chief Tools token",
    "settlemint_token": "a SettleMint access token",
    "intra42_secret": "a 42 Intra client secret",
    "django_secret_key": "a Django secret key",
    "nuget_key": "a NuGet API key",
    "octopus_deploy_key": "an Octopus Deploy API key",
    "azure_devops_token": "an Azure DevOps personal access token",
    "azure_key": "an Azure service key in Microsoft's annotated format",
    "authress_key": "an Authress service client access key",
    "sonar_token": "a SonarQube token",
    "sidekiq_credentials": "a Sidekiq Pro or Enterprise gem server credential",
    "datafactory_key": "an Azure Data Factory self-hosted integration runtime key",
}
"""The kinds this module adds to the screen's, with a short description for error messages."""

_HEX = rb"[a-f0-9]"
_ALNUM = rb"[A-Za-z0-9]"
_UUID = rb"[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}"

PREFIXED: tuple[tuple[str, bytes, bytes], ...] = (
    ("groq_key", rb"gsk_", _ALNUM + rb"{40,64}"),
    ("xai_key", rb"xai-", _ALNUM + rb"{60,120}"),
    ("perplexity_key", rb"pplx-", _ALNUM + rb"{40,64}"),
    ("replicate_token", rb"r8_", _ALNUM + rb"{30,48}"),
    # Mailgun's private key: "key-" and 32 lower-case letters and digits (its documentation's
    # examples are not all hex); a public one is "pubkey-", which the word's start leaves out.
    ("mailgun_key", rb"key-", rb"(?=[a-z]{0,31}[0-9])[a-z0-9]{32}"),
    ("atlassian_token", rb"ATATT3", rb"[A-Za-z0-9_=-]{60,250}"),
    ("atlassian_token", rb"ATBB", rb"[A-Za-z0-9_=.-]{28,64}"),  # a Bitbucket app password
    ("linear_key", rb"lin_api_", _ALNUM + rb"{32,64}"),
    ("notion_token", rb"ntn_", _ALNUM + rb"{40,60}"),
    ("notion_token", rb"secret_", rb"(?=[A-Za-z]{0,42}[0-9])" + _ALNUM + rb"{43}"),  # a legacy integration token
    ("grafana_token", rb"glsa_", _ALNUM + rb"{32}_[A-Fa-f0-9]{8}"),
    ("grafana_token", rb"eyJrIjoi", _ALNUM + rb"{70,400}={0,3}"),  # an API key: base64 of {"k":"
    ("postman_key", rb"PMAK-", _ALNUM + rb"{24}-" + _ALNUM + rb"{34}"),
    ("twilio_key", rb"SK", rb"[0-9a-fA-F]{32}"),
    ("heroku_key", rb"HRKU-", rb"[A-Za-z0-9_-]{60}"),
    ("team_token", rb"tmt_", rb"[A-Za-z0-9_-]{43}"),  # tact_memory.team.tokens: tmt_ and token_urlsafe(32)
    ("alibaba_key", rb"LTAI", _ALNUM + rb"{12,20}"),
    (
        "onepassword_key",
        rb"A3-",
        rb"[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
    ),
    ("onepassword_key", rb"ops_", rb"eyJ[A-Za-z0-9+/]{250,2000}={0,3}"),
    ("adobe_secret", rb"p8e-", _ALNUM + rb"{32}"),
    ("artifactory_token", rb"AKCp", _ALNUM + rb"{60,80}"),
    ("artifactory_token", rb"cmVmd", _ALNUM + rb"{59}"),  # a reference token: base64 of "ref"
    ("clickhouse_key", rb"4b1d", _ALNUM + rb"{38}"),
    ("clojars_token", rb"CLOJARS_", _ALNUM + rb"{60}"),
    ("cloudflare_key", rb"v1\.0-", _HEX + rb"{24}-" + _HEX + rb"{146}"),
    ("defined_networking_token", rb"dnkey-", rb"[A-Za-z0-9_=-]{60,100}"),
    ("dropbox_token", rb"sl\.", rb"(?:u\.)?[A-Za-z0-9_=-]{130,1500}"),
    ("duffel_token", rb"duffel_", rb"(?:test|live)_[A-Za-z0-9_=-]{43}"),
    ("dynatrace_token", rb"dt0c01\.", _ALNUM + rb"{24}\." + _ALNUM + rb"{64}"),
    ("easypost_key", rb"EZ", rb"[AT]K" + _ALNUM + rb"{54}"),
    ("flutterwave_key", rb"FLWSECK", rb"(?:_TEST)?-(?:" + _ALNUM + rb"{32}-X|" + _ALNUM + rb"{12})"),
    ("flyio_token", rb"fo1_", rb"[A-Za-z0-9_-]{43}"),
    ("flyio_token", rb"fm", rb"(?:1[ar]|2)_[A-Za-z0-9+/]{100,2000}={0,3}"),
    ("frameio_token", rb"fio-u-", rb"[A-Za-z0-9_=-]{64}"),
    *(
        ("harness_token", lead, rb"[A-Za-z0-9_-]{22}\." + _ALNUM + rb"{24}\." + _ALNUM + rb"{20}")
        for lead in (rb"pat\.", rb"sat\.")
    ),
    ("infracost_key", rb"ico-", _ALNUM + rb"{32}"),
    ("openshift_token", rb"sha256~", rb"[A-Za-z0-9_-]{43}"),
    ("plaid_token", rb"access-", rb"(?:sandbox|development|production)-" + _UUID),
    ("planetscale_token", rb"pscale_", rb"(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}"),
    ("prefect_key", rb"pnu_", _ALNUM + rb"{36}"),
    ("pulumi_token", rb"pul-", _HEX + rb"{40}"),
    ("readme_key", rb"rdme_", rb"[a-z0-9]{70}"),
    ("rubygems_key", rb"rubygems_", _HEX + rb"{48}"),
    ("scalingo_token", rb"tk-us-", rb"[A-Za-z0-9_-]{48}"),
    *(("brevo_key", lead, _HEX + rb"{64}-" + _ALNUM + rb"{16}") for lead in (rb"xkeysib-", rb"xsmtpsib-")),
    ("shippo_token", rb"shippo_", rb"(?:live|test)_[a-fA-F0-9]{40}"),
    ("typeform_token", rb"tfp_", rb"[A-Za-z0-9_=.-]{59}"),
    # HubSpot's private app token: "pat-", the account's region and a UUID.
    ("hubspot_token", rb"pat-", rb"(?:na|eu|ap)[0-9]-" + _UUID),
    # Netlify's and dbt Cloud's tokens: random, so with a digit and a letter.
    ("netlify_token", rb"nfp_", rb"(?=[A-Za-z_]{0,35}[0-9])" + _ALNUM + rb"{36,64}"),
    ("dbt_cloud_token", rb"dbt", rb"[cu]_(?=[A-Za-z_-]{0,39}[0-9])[A-Za-z0-9_-]{40,64}"),
    # Tencent Cloud's SecretId, as AWS's access key ID is read: "AKID" and thirty-two letters and digits.
    ("tencent_key", rb"AKID", rb"(?=[A-Za-z]{0,31}[0-9])" + _ALNUM + rb"{32}"),
    ("yandex_token", rb"t1\.", rb"[A-Za-z0-9_-]{8,200}={0,2}\.[A-Za-z0-9_-]{86}={0,2}"),
    ("yandex_token", rb"AQVN", rb"[A-Za-z0-9_-]{35,38}"),
    ("yandex_token", rb"YC", rb"(?=[A-Za-z0-9_-]{0,37}[a-z])[A-Za-z0-9_-]{38}"),  # random, so mixed case
    *(("lob_key", lead, _HEX + rb"{35}") for lead in (rb"live_", rb"test_")),
    ("mapbox_token", rb"sk\.", rb"eyJ[A-Za-z0-9_-]{20,400}\.[A-Za-z0-9_-]{20,100}"),
    ("sourcegraph_token", rb"sgp_", rb"(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}"),
    ("airtable_token", rb"pat", _ALNUM + rb"{14}\." + _HEX + rb"{64}"),
    ("docker_token", rb"dckr_", rb"(?:pat|oat)_[A-Za-z0-9_-]{24,64}"),
    ("buildkite_token", rb"bkua_", _HEX + rb"{40}"),
    ("langsmith_key", rb"lsv2_", rb"(?:pt|sk)_" + _HEX + rb"{32}_" + _HEX + rb"{10}"),
    ("supabase_key", rb"sbp_", rb"(?:oauth_)?" + _HEX + rb"{40}"),
    ("supabase_key", rb"sb_secret_", rb"[A-Za-z0-9_-]{20,100}"),
    ("pinecone_key", rb"pcsk_", rb"[A-Za-z0-9_]{40,100}"),
    ("tailscale_key", rb"tskey-", rb"(?:auth|api|client|webhook|scim)-[A-Za-z0-9-]{20,200}"),
    ("contentful_token", rb"CFPAT-", rb"[A-Za-z0-9_-]{43}"),
    ("posthog_key", rb"phx_", _ALNUM + rb"{40,60}"),
    ("figma_token", rb"figd_", rb"[A-Za-z0-9_-]{40,60}"),
    ("circleci_token", rb"CCIPAT_", _ALNUM + rb"{20,30}_" + _HEX + rb"{40}"),
    ("resend_key", rb"re_", rb"(?=[A-Za-z_]{0,33}[0-9])" + _ALNUM + rb"{8}_" + _ALNUM + rb"{24}"),
    ("render_key", rb"rnd_", _ALNUM + rb"{32}"),
    ("nvidia_key", rb"nvapi-", rb"[A-Za-z0-9_-]{64}"),
    ("elevenlabs_key", rb"sk_", _HEX + rb"{48}"),
    ("tavily_key", rb"tvly-", rb"(?:(?:dev|prod)-)?(?=[A-Za-z]{0,47}[0-9])" + _ALNUM + rb"{32,48}"),
    ("firecrawl_key", rb"fc-", _HEX + rb"{32}"),
    ("together_key", rb"tgp_v1_", rb"[A-Za-z0-9_-]{40,64}"),
    ("launchdarkly_key", rb"sdk-", _UUID),  # a server-side SDK key
    ("crates_token", rb"cio", rb"(?=[A-Za-z]{0,31}[0-9])" + _ALNUM + rb"{32}"),
    *(("honeycomb_key", lead, _ALNUM + rb"{58}") for lead in (rb"hcaik_", rb"hcaic_")),  # ingest and configuration keys
    ("neon_key", rb"napi_", rb"[a-z0-9]{64}"),
    # A short-term Bedrock key: the prefix, then base64 of "bedrock.amazonaws.com" and of the rest
    # of a pre-signed request.
    ("bedrock_key", rb"bedrock-api-key-", rb"YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%_-]{4,4000}"),
    ("aiven_token", rb"AVNS_", rb"[A-Za-z0-9_]{11,64}"),  # eleven or more: every token has a run of sixteen
    ("castai_key", rb"castai_v1_", _ALNUM + rb"{64}_" + _ALNUM + rb"{8}"),
    ("braintree_token", rb"access_token\$", rb"(?:production|sandbox)\$[a-z0-9]{16}"),
    *(("chieftools_token", lead, _ALNUM + rb"{30,248}") for lead in (rb"ctp_", rb"cto_", rb"ctr_")),
    *(("settlemint_token", lead, _ALNUM + rb"{16}") for lead in (rb"sm_pat_", rb"sm_aat_", rb"sm_sat_")),
    ("intra42_secret", rb"s-s4t2", rb"(?:ud|af)-[A-Fa-f0-9]{64}"),
    # An OAuth refresh token as Google issues it (gcloud's application default credentials hold one).
    ("google_oauth_token", rb"1//0", rb"[A-Za-z0-9_-]{40,512}"),
    # What "django-admin startproject" writes: fifty characters from Django's own alphabet.
    ("django_secret_key", rb"django-insecure-", rb"[a-z0-9!@#$%^&*(=+)_-]{20,128}"),
    ("nuget_key", rb"oy2", rb"[a-z0-9]{43}"),
    # SonarQube's user, project and global analysis tokens (squ_, sqp_, sqa_) and forty hex digits
    # (gitleaks' sonar-api-token rule).
    *(("sonar_token", lead, _HEX + rb"{40}") for lead in (rb"squ_", rb"sqp_", rb"sqa_")),
    # "API-" and twenty-six capitals and digits (gitleaks' rule). Random, so with a digit and a
    # letter: twenty-six capitals alone are a word (API-DOCUMENTATION...).
    ("octopus_deploy_key", rb"API-", rb"(?=[A-Z]{0,25}[0-9])(?=[0-9]{0,25}[A-Z])[A-Z0-9]{26}"),
    # A HashiCorp Vault service token from before Vault 1.10 (now hvs.): "s." and 24 letters and
    # digits, with a digit (24 letters alone are a word or a name, as gitleaks' rule allows).
    ("vault_token", rb"s\.", rb"(?=[A-Za-z]{0,23}[0-9])(?=[0-9]{0,23}[A-Za-z])" + _ALNUM + rb"{24}"),
)
"""Rows of (kind, prefix, the run after it), as regular-expression source. The prefix is a literal
(escaped where it holds a dot), so the engine jumps between its occurrences; the run is the body
the screen checks. Rows of one prefix come most specific first."""

_END = rb"(?![A-Za-z0-9_-])"
_NOT_IN_BASE64 = rb"(?<![A-Za-z0-9_+/-])"
"""Before a token whose letters base64 also has (EAA, a run of A, which base64 writes for zero
bytes): not inside a base64 run, where "+" and "/" would pass for a word's edge."""
_BASE64_END = rb"(?![A-Za-z0-9_+/=%-])"
# What follows the signature JQQJ9 in Microsoft's annotated key format: the key's kind, a year and a
# month letter (A to L), and sixteen reserved characters; the provider's mark comes after.
_ANNOTATED = rb"[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}"

MARKED: tuple[tuple[str, bytes], ...] = (
    # A 32-digit hex key and its data centre: the "-us" between them is the literal the engine
    # jumps to, and the key is looked for behind it.
    ("mailchimp_key", rb"-us(?<=(?<![A-Za-z0-9_-])(?P<body>[a-f0-9]{32})-us)[0-9]{1,2}" + _END),
    # Six characters, an underscore, twenty-nine, and "_mmk".
    ("maxmind_key", rb"_mmk(?<=(?<![A-Za-z0-9_-])(?P<body>[A-Za-z0-9]{6}_[A-Za-z0-9]{29})_mmk)" + _END),
    # Three characters, a digit and "Q~", then 31 to 34 more.
    (
        "azure_client_secret",
        rb"Q~(?<=(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~)(?P<body>[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])",
    ),
    # A long-lived Dropbox token: eleven characters (not all "A", which base64 writes for zero
    # bytes), ten "A"s, forty-three more.
    (
        "dropbox_token",
        rb"AAAAAAAAAA(?<=" + _NOT_IN_BASE64 + rb"(?!A{11})[A-Za-z0-9]{11}AAAAAAAAAA)(?P<body>[A-Za-z0-9_=-]{43})"
        + _BASE64_END,
    ),
    # A Firebase Cloud Messaging server key of the legacy API: "AAAA" and seven characters (the
    # project's number, encoded), a colon, then "APA91b" and some 134 more. The colon and the mark
    # are the literal: "AAAA" alone starts runs of base64 everywhere.
    (
        "firebase_fcm_key",
        rb":APA91b(?<=" + _NOT_IN_BASE64 + rb"AAAA[A-Za-z0-9_-]{7}:APA91b)(?P<body>[A-Za-z0-9_-]{100,200})" + _BASE64_END,
    ),
    # Square's access tokens and Meta's start with EAA (Square's with EAAA, and shorter).
    ("square_token", rb"EAAA(?<=" + _NOT_IN_BASE64 + rb"EAAA)(?P<body>[A-Za-z0-9_-]{22,60})" + _BASE64_END),
    ("facebook_token", rb"EAA(?<=" + _NOT_IN_BASE64 + rb"EAA)(?P<body>[A-Za-z0-9]{100,500})" + _BASE64_END),
    # A Meta app access token: the app's id (fifteen or sixteen digits), "|" (or "%7C" in a URL) and
    # the app's secret (32 hex digits) or a hash of it (27 URL-safe base64 characters, twenty bytes)
    # (Meta's access token guide; gitleaks' facebook-access-token rule), with a digit and a letter,
    # as a random run has: a name of another length after a long number and a bar is kept.
    *(
        (
            "facebook_token",
            bar + rb"(?:" + rb"|".join(rb"(?<=(?<![A-Za-z0-9_.|%-])" + digits + bar + rb")" for digits in (rb"[0-9]{15}", rb"[0-9]{16}")) + rb")"
            rb"(?=[A-Za-z0-9_-]{0,31}[0-9])(?=[A-Za-z0-9_-]{0,31}[A-Za-z])(?P<body>[a-f0-9]{32}|[A-Za-z0-9_-]{27})" + _END,
        )
        for bar in (rb"\|", rb"%7C")
    ),
    # An X (Twitter) app's bearer token: a run of twenty-one to twenty-three "A"s (gitleaks matches
    # twenty-two), then URL-encoded base64.
    (
        "twitter_token",
        rb"A" * 20 + rb"(?<=" + _NOT_IN_BASE64 + rb"A{20})A{1,3}(?P<body>[B-Za-z0-9%][A-Za-z0-9%]{79,99})" + _BASE64_END,
    ),
    # A long-term Amazon Bedrock key: "ABSK" and base64 (of "BedrockAPIKey-" and the key).
    ("bedrock_key", rb"ABSK(?<=" + _NOT_IN_BASE64 + rb"ABSK)(?P<body>[A-Za-z0-9+/]{100,300}={0,2})" + _BASE64_END),
    # An Azure DevOps personal access token in Microsoft's 84-character format (a "common annotated
    # security key"): fifty-two random characters, the fixed signature JQQJ9 and a key-kind
    # character, a two-character date (the month a letter from A to L), sixteen reserved
    # characters, the provider's signature AZDO and a four-character checksum.
    (
        "azure_devops_token",
        rb"JQQJ9(?<=(?<![A-Za-z0-9_-])(?P<body>[A-Za-z0-9]{52})JQQJ9)" + _ANNOTATED + rb"AZDO[A-Za-z0-9]{4}" + _END,
    ),
    # Every other Azure service key in that format (Cognitive Services, Event Grid, Web PubSub,
    # Search...): any provider signature, a letter and three letters or digits, and in the long
    # form two more characters and "==".
    (
        "azure_key",
        rb"JQQJ9(?<=" + _NOT_IN_BASE64 + rb"(?P<body>[A-Za-z0-9]{52})JQQJ9)" + _ANNOTATED
        + rb"[A-Za-z][A-Za-z0-9]{7}(?:[A-Za-z0-9]{2}==)?" + _BASE64_END,
    ),
    # An Authress service client's access key, in the four parts Authress publishes: the client's
    # id after its prefix, the key's id, the account ("acc-" or "acc_") and the private key, whose
    # base64 is the part checked.
    *(
        (
            "authress_key",
            lead + rb"(?<![A-Za-z0-9_-]" + lead + rb")[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][a-z0-9-]{10,32}\."
            rb"(?P<body>[A-Za-z0-9+/_=-]{30,120})(?![A-Za-z0-9+/_=-])",
        )
        for lead in (rb"sc_", rb"ext_", rb"scauth_", rb"authress_")
    ),
    # The user and password of Sidekiq Pro's and Enterprise's gem server, given to Bundler as its
    # documented setting (BUNDLE_GEMS__CONTRIBSYS__COM=..., "bundle config gems.contribsys.com ..."):
    # eight hex digits, a colon and eight more (gitleaks' sidekiq-secret rule).
    (
        "sidekiq_credentials",
        rb"__CONTRIBSYS__COM(?:(?<=(?<![A-Za-z0-9_])BUNDLE_GEMS__CONTRIBSYS__COM)|(?<=(?<![A-Za-z0-9_])BUNDLE_ENTERPRISE__CONTRIBSYS__COM))"
        rb"[\"']?[ \t]*[:=][ \t]*[\"']?(?P<body>[a-f0-9]{8}:[a-f0-9]{8})(?![A-Za-z0-9])",
    ),
    (
        "sidekiq_credentials",
        rb"\.contribsys\.com(?:(?<=[ \t]gems\.contribsys\.com)|(?<=[ \t]enterprise\.contribsys\.com))"
        rb"[ \t]+[\"']?(?P<body>[a-f0-9]{8}:[a-f0-9]{8})(?![A-Za-z0-9])",
    ),
    # An Azure Data Factory self-hosted integration runtime's key: "IR@", the runtime's GUID, the
    # factory's name, its region and the key itself, 32 bytes in base64, joined by "@" (gitleaks'
    # datafactory-shir-token rule, after Microsoft's format). The base64 is the part checked.
    (
        "datafactory_key",
        rb"IR@(?<![A-Za-z0-9_-]IR@)[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
        rb"@[A-Za-z0-9_.-]{1,63}@[A-Za-z0-9=-]{0,40}@(?P<body>[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])",
    ),
    (
        "teams_webhook",
        rb"\.webhook\.office\.com/webhookb2/[a-f0-9-]{36}@[a-f0-9-]{36}/IncomingWebhook/"
        rb"(?P<body>[A-Za-z0-9]{32})/[a-f0-9-]{36}",
    ),
)
"""Rows of (kind, pattern) for tokens whose marker is not at their start: each pattern starts with
that marker and looks back for what comes before it; its ``body`` group is what the screen checks."""
