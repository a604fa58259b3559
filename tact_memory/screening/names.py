"""The names that make a value a credential, and the names that say it is none: names in code and
configuration, headers, cookies, a Kubernetes Secret's data, tools that take a password.

The patterns here are regular-expression sources (bytes), compiled by :class:`.checks.Checks` the
first time a check needs one; this module is data only and compiles nothing.

Design:

- A credential-like name *ends* in a credential word at a word boundary (``DB_PASSWORD``,
  ``clientSecret``, ``api-key``, ``authToken``, ``STRIPE_KEY``), optionally followed by an
  environment or version qualifier (``DB_PASSWORD_PROD``, ``JWT_SECRET_1``, ``dbPasswordV2``).
  A name that goes on past the credential word with other words may say something *about* the
  credential (``TOKEN_TTL_SECONDS``, ``password_min_length``, ``token_url``: lengths, counts,
  addresses) or name what it is for (``DB_PASSWORD_ORDERS``, ``GITHUB_TOKEN_BOTS``): under it only
  a value that looks generated is refused, eight bytes or more that mix three of lower case, upper
  case, digits and symbols (or a long hex or base32 run), so numbers, durations, URLs, paths and
  identifiers are kept. ``max_tokens`` and ``tokenizer`` go on with no separator and name no
  credential at all. An
  upper-case name that ends in ``_KEY`` and says nothing of a credential (``SPAN_KEY``,
  ``CONFIGFILE_KEY``) is one only while its value could be: lower-case words joined by ``-``,
  ``_`` or ``.`` (``"current-span"``) name what it looks up, and are kept. ``pass`` alone names a
  count or a test's result as often as a password (``pass: 14``, ``PASS = "PASS"``, ``PASS = 0``):
  after it, a value written as one is refused when it is one run with a letter and a digit or a
  symbol (``PASS=hunter2``, ``export PASS="hunter2"``), and a plain word or a number is kept;
  in a sentence, after ``pass is``, only a value that looks generated (``the wifi pass is
  Summer2024!``; not ``the first pass is O(n^2)``).
- Some values only name a secret, or are public by design, and are kept: a cookie that holds a
  preference (``Cookie: theme=dark``; one named for a session or a login, or with a generated
  value, is refused), the name of a Secret object or of a key inside one under the names charts
  give it in (``secretKey: postgres-password``), a CAPTCHA's site key, and a key whose provider
  publishes it as public (Stripe's ``pk_live_...``, Mapbox's ``pk.`` tokens) under any name.
  A key whose public and secret forms share a shape (Firebase's ``AIza...`` web keys, Algolia's
  search-only keys) is refused.
"""

from __future__ import annotations

from .leads import word_start
from .vocabulary import NAME_CHAR, PASSWORD_WORD

__all__ = [
    "BASE64_DATA",
    "COOKIE_ATTRIBUTE",
    "COOKIE_PAIR",
    "COOKIE_SEPARATOR",
    "CREDENTIAL_NAME",
    "ECHOED",
    "ECHOED_INTO",
    "HERE_DOCUMENT",
    "HERE_STRING",
    "KEY_CONSTANT",
    "KEY_CONSTANT_SECRET",
    "KEY_HEADER",
    "KEY_NAME_VALUE",
    "LOOKUP_VALUE",
    "MAX_COMMAND",
    "MAX_ENTRIES",
    "MAX_NAME",
    "NAMED_CREDENTIAL",
    "NAME_BEFORE",
    "NAME_ONLY_WORD",
    "NOT_CREDENTIAL_NAME",
    "NUMBER",
    "OBJECT_NAME",
    "OPTION_TOOL",
    "PAIR_NAME",
    "PAIR_REACH",
    "PASSWORD_TOOL",
    "PASS_NAME",
    "SECRET_DATA",
    "SECRET_ENTRY",
    "SECRET_FLAG",
    "SECRET_REFERENCE_NAME",
    "SESSION_COOKIE",
    "SESSION_COOKIE_NAME",
    "SPACED_KEY_END",
    "SPACED_KEY_NAME",
    "STDIN_READER",
    "STDIN_READERS",
    "SUFFIXED_CREDENTIAL",
    "WEAK_NAME",
]

# Pagination cursors, the names of existing secret objects, public values (.NET's publicKeyToken,
# Stripe's publishable key, which Stripe documents as safe to ship in a web page) and a tokenizer's
# special tokens (eos_token, pad_token) end in "token", "key" or "secret" too.
NOT_CREDENTIAL_NAME = (
    rb"(?i:.*?(?:next|page|continuation|cursor|sync|existing|pad|eos|bos|unk|sep|cls|mask|special"
    rb"|start|end|stop)[_.-]?(?:token|secret).*|.*publi(?:c|shable).*"
    # A CAPTCHA's site key goes into the page it protects (reCAPTCHA, hCaptcha, Turnstile); its
    # secret key has the same shape and is told apart only by its name.
    rb"|.*(?:captcha|turnstile).*site[_.-]?key.*)"
)

# Names under which a Helm chart or an operator gives the name of a Secret object, or of a key
# inside one (External Secrets' secretKey, a passwordSecret, Keycloak's passwordSecretKey), written
# in YAML's camel case, after any dotted path (--set auth.passwordSecret=...).
SECRET_REFERENCE_NAME = (
    rb"(?:--|[A-Za-z0-9_-]+\.)*(?:secret(?:Key)?"
    rb"|(?:[a-z]+(?:[A-Z][a-z]+)*?)?(?:[Pp]ass(?:word|wd)|[Cc]redentials?|[Cc]reds)Secret(?:Key)?)"
)
# gcloud's --set-secrets and --update-secrets take NAME=SECRET:VERSION pairs: each value names a
# Secret Manager object and its version, never a secret.
SECRET_FLAG = (
    rb"--(?:set|update)-secrets[= \t]+[\"']?(?:[A-Za-z0-9_./-]{1,64}=[A-Za-z0-9_./:-]{1,256},){0,16}"
    rb"(?:[A-Za-z0-9_./-]{1,64}=)?\Z"
)
# What such a name holds when it names a key: lower-case words joined by dashes, underscores or
# dots that end in what the key holds (postgres-password, db-credentials, api-key), no digit, no
# capital. A password chosen from words ("correct-horse") does not end that way; one that does
# ("super-secret-password") is kept only under the names above, never after password: itself.
KEY_NAME_VALUE = (
    rb"[a-z]{2,20}(?:[-_.][a-z]{2,20}){0,5}[-_.]"
    rb"(?:pass(?:word|wd|phrase)|pwd|token|credentials|creds|secrets|api[-_]?key)"
)

# Qualifiers that may follow a credential word and keep the name a credential name: digits and
# versions (JWT_SECRET_1, TOKEN_V2), deployment environments and roles (DB_PASSWORD_PROD,
# apiKeyStaging, ADMIN_PASSWORD_RO), and encodings of the same value (SECRET_B64). Any other
# ending says something about the credential instead (TOKEN_TTL_SECONDS, password_policy,
# token_url, token_count), so such a name holds a setting, not a credential.
_QUALIFIER = (
    rb"(?:(?:[_.-]|(?<=[a-z])(?=[A-Z]))?(?:[0-9]+|[vV][0-9]+)"
    rb"|(?:[_.-]|(?<=[a-z])(?=[A-Z]))(?i:prod|production|prd|dev|development|stage|staging|stg|test"
    rb"|testing|qa|uat|live|local|sandbox|preview|old|new|prev|previous|current|primary|secondary"
    rb"|backup|main|alt|default|temp|tmp|ci|admin|root|ro|rw|b64|base64|enc|encrypted|hex|raw|value"
    rb"|val|plain|plaintext|str|string))"
)
# Services whose bare "<name>_KEY" holds an API key (names as published by public secret-scanner
# rule sets). Upper-case environment names ending in "_KEY" are checked separately.
_KEY_SERVICE = (
    rb"stripe|twilio|sendgrid|mailgun|mailchimp|postmark|sparkpost|mandrill|openai|anthropic|cohere"
    rb"|mistral|groq|gemini|openrouter|replicate|huggingface|hf|pinecone|algolia|pusher|firebase"
    rb"|mapbox|heroku|shopify|square|paypal|braintree|plaid|okta|auth0|cloudflare|cf|digitalocean"
    rb"|linode|vultr|datadog|dd|newrelic|new[_.-]?relic|sentry|segment|mixpanel|amplitude|twitter"
    rb"|facebook|discord|telegram|dropbox|notion|airtable|atlassian|jira|bitbucket|snyk|circleci"
    rb"|netlify|vercel|supabase|fastly|contentful|hubspot|zendesk|intercom|asana|linear|figma"
    rb"|coinbase|binance|google|gcp|maps|azure|aws|github|gitlab|slack|npm|pypi|nuget|docker"
    # The rest of the services gitleaks' rules name before a key of theirs.
    rb"|adafruit|adobe|alibaba|beamer|bittrex|meraki|codecov|confluent|droneci|etsy|finicity|finnhub"
    rb"|flickr|freshbooks|gitter|gocardless|jfrog|artifactory|bintray|kraken|kucoin|launchdarkly"
    rb"|linked[_.-]?in|looker|mattermost|message[_.-]?bird|nytimes|private[_.-]?ai|rapidapi|sendbird"
    rb"|sourcegraph|squarespace|sumo(?:logic)?|travis(?:ci)?|twitch|typeform|yandex|adyen|chargebee|sonar"
    # Model and agent-tool services whose keys agents are given.
    rb"|wandb|deepgram|tavily|firecrawl|elevenlabs|together[_.-]?ai|fireworks|assemblyai|voyage[_.-]?ai|jina"
    rb"|serpapi|serper|browserbase|e2b|runpod|langsmith|langchain|helicone|braintrust|weaviate|qdrant"
    rb"|perplexity|deepseek|cerebras|anyscale"
    # Alerting, on-call and error-tracking services, whose keys let anyone page a team or post events.
    rb"|pagerduty|opsgenie|victorops|rollbar|bugsnag|honeybadger|logdna|loggly|papertrail|statuspage|raygun"
)
_WALLET_HOLDER = rb"wallet|signer|deployer|metamask"
"""What holds a blockchain account's private key, named before "key" (deployer_key, MetaMask key)."""
# What a password opens, as names run it into "pass" (dbpass, rootpass, smtppass, remotepass).
_PASS_OWNER = (
    rb"db|root|admin|user|local|remote|mysql|pg|sql|smtp|ftp|sftp|mail|imap|pop|wifi|wlan|ldap|bind|vnc|rdp"
    rb"|sudo|master|app|svc|proxy|redis|mongo|rabbit|amqp|login|web|site|http|vault|client|server|host|sys"
    rb"|oracle|postgres|mssql|my|sasl|irc|nick|ssh|jks|pfx|cert|trust|wpa"
)
# A name ends in a credential word. Distinctive words may follow any prefix (dbpassword, SSSD's and
# PAM's authtok: ldap_default_authtok; Redis's requirepass and masterauth as a chart's keys), and a
# password's name may be plural (passwords: ..., the root passwords are ...) or a passcode; short
# ones need a separator or a camel-case step before them (GITHUB_TOKEN, authToken, DB_PWD, db-pass).
_NAMED_CORE = (
    NAME_CHAR + rb"*?(?:(?i:pass(?:words?|wd|phrases?|codes?)|" + PASSWORD_WORD + rb"|secret|credentials?|creds|authtok|requirepass|masterauth"
    rb"|(?:auth|access|refresh|api|bot|oauth|session|bearer|identity|id|csrf|xsrf|personal[_.-]?access"
    rb"|service|app|client|deploy|registry)[_.-]?tokens?"
    rb"|(?:api|access|secret|private|signing|encryption|master|account|app|application|client|consumer|license"
    rb"|auth|service|db|database|priv|webhook|shared[_.-]?access"
    # Keys named for what they open or sign: Vault's unseal and recovery keys, a Fernet key (Airflow,
    # cryptography), a JWT's or an HMAC's signing key, WireGuard's PresharedKey, a one-time
    # password's key (totp_key, the shared secret an authenticator app is given).
    rb"|unseal|recovery|fernet|jwt|hmac|pre[_.-]?shared|otp|totp|hotp|2fa|mfa"
    # A blockchain account's private key by the wallet or role that holds it (deployer_key, signerKey).
    rb"|" + _WALLET_HOLDER + rb")(?:__|[_.-])?key"
    rb"|secret[_.-]?key[_.-]?base|sonar[_.-]?login|(?:otp|totp|hotp|2fa|mfa)[_.-]?seed"
    # An account's way back in: a security question's answer, two-factor recovery or backup codes;
    # what opens a device or a licence: an unlock code (a phone's PUK), an activation code.
    rb"|(?:security|secret)[_.-]?answer|(?:recovery|backup|unlock|activation)[_.-]?codes?"
    # WordPress's four salts, keys of its cookies and nonces like the four *_KEY beside them
    rb"|(?:secure[_.-]?auth|auth|logged[_.-]?in|nonce)[_.-]?salt)"
    rb"|(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))(?i:(?:" + _KEY_SERVICE + rb")[_.-]?key)"
    rb"|(?:(?<=[_.-])|(?<=[a-z0-9])(?=[A-Z])|(?<![A-Za-z0-9_.-]))(?i:token|pwd|pw|psk)"
    rb"|(?:(?<=[_.-])|(?<=[a-z0-9])(?=[A-Z]))(?i:pass|pat)"
    # "pass" run on after what the password opens, with no joint (dbpass, $rootpass, SSHPASS,
    # offlineimap's remotepass); after any other word the run is another word (bypass, compass,
    # multipass).
    rb"|(?<![A-Za-z0-9])(?i:" + _PASS_OWNER + rb")(?i:pass))"
)
NAMED_CREDENTIAL = _NAMED_CORE + _QUALIFIER + rb"{0,3}"
# A name that goes on past its credential word with words the qualifiers do not list
# (DB_PASSWORD_ORDERS, GITHUB_TOKEN_BOTS, OPENAI_API_KEY_SUMMARIZER, AUTH_TOKEN_US_EAST). It may
# still hold the credential, or say something about it (TOKEN_TTL_SECONDS, PASSWORD_RESET_URL,
# API_KEY_HEADER): only a value that looks generated is refused under it (see generated_value).
SUFFIXED_CREDENTIAL = _NAMED_CORE + rb"(?:[_.-]|(?<=[a-z])(?=[A-Z]))[A-Za-z0-9_.-]{1,63}"
# An upper-case environment name ending in _KEY, unless the word before says what kind of lookup
# key it is (SORT_KEY, CACHE_KEY, S3_OBJECT_KEY). Such a name says nothing of what it holds: the
# value decides (see LOOKUP_VALUE).
KEY_CONSTANT = (
    rb"(?:[A-Z0-9]+_)*(?!(?:SORT|PRIMARY|PARTITION|CACHE|ROUTING|IDEMPOTENCY|FOREIGN|OBJECT|S3|LOCK"
    rb"|QUEUE|PUBLIC|HASH|RANGE|SHARD|ROW|INDEX|DEDUP|DEDUPE|GROUP|MESSAGE|MAP|LOOKUP|UNIQUE|COMPOSITE"
    rb"|CURSOR|PAGE|REDIS|KMS|GPG|PGP|SSH|HOT|LANGUAGE|LOCALE|CONFIG|FEATURE|EVENT|TOPIC|BUCKET|PATH"
    rb"|FILE|KEY)_)[A-Z0-9]+_KEY" + _QUALIFIER + rb"{0,3}"
)
CREDENTIAL_NAME = NAMED_CREDENTIAL + rb"|" + KEY_CONSTANT
# Every name CREDENTIAL_NAME or SUFFIXED_CREDENTIAL takes holds a credential word (CREDENTIAL_WORD),
# or one of these, which only a name holds: the login of SonarQube's sonar.login, the salt of
# WordPress's NONCE_SALT, a security question's answer, a recovery, backup, unlock or activation
# code. Most names a check asks about (the word before a quote, a colon or an equals sign) hold
# neither and are turned down without compiling those two: five kilobytes of pattern, which take a
# cold process five milliseconds to compile.
NAME_ONLY_WORD = rb"(?i:login|salt|answer|(?:recovery|backup|unlock|activation)[_.-]?code)"
# A word in a KEY_CONSTANT that says the key is a credential all the same (JWT_KEY, SESSION_KEY,
# PASSWORD_KEY, HMAC_KEY): under such a name a value is judged as after any credential name.
KEY_CONSTANT_SECRET = (
    rb"(?i:.*(?:secret|pass|pwd|token|api|priv|access|auth|cred|jwt|hmac|sign|crypt|cipher|master"
    rb"|session|license|webhook|psk|otp|mfa|salt|pepper|seed|nonce|login|wifi|wpa|wep|ssh|gpg|pgp"
    rb"|vault|kms|encrypt|decrypt|unlock|pin|paseto|oauth|bearer|client|service|admin|root|user).*)"
)
# What a KEY_CONSTANT holds when it names what it looks up (SPAN_KEY = "current-span",
# CONFIGFILE_KEY = "pydantic-mypy", METADATA_KEY = "mcp_app"): two to six lower-case words joined
# by "-", "_" or ".", each of two to fifteen letters with a vowel or an acronym's two to four, one
# word with a vowel at least; no digit, no capital. A generated key has a digit, a capital or a
# long run of letters; a passphrase of plain words after such a name is kept.
_LOOKUP_WORD = rb"(?:(?=[a-z]*[aeiouy])[a-z]{2,15}|[a-z]{2,4})"
LOOKUP_VALUE = rb"(?=[a-z._-]*[aeiouy])" + _LOOKUP_WORD + rb"(?:[-_.]" + _LOOKUP_WORD + rb"){1,5}"
# "pass" alone names a password (PASS=hunter2, export PASS="..."), but as often a count (pass: 14)
# or a test's result (PASS = "PASS", PASS = 0, PASS = "passed"). A number after it is never one
# (0x01 and 1.5e-3 too); a value written as one (tight against its separator, quoted, or ending its
# clause) is refused when it is one run with a password's texture, a letter with a digit or a symbol.
PASS_NAME = rb"(?i:pass)"
# Names whose value is often a plain word or a mode (auth: none, auth: oauth2, "Pass: 12 tests"):
# their value is refused only when it looks generated, as Docker's "auth" and npm's "_auth"
# base64 values do.
WEAK_NAME = rb"(?:[A-Za-z0-9.-]*_|[A-Za-z0-9_.-]*[.-])?(?i:auth)|" + PASS_NAME
NUMBER = rb"[0-9][0-9_.]*(?:[eE][-+]?[0-9]+)?|0[xX][0-9A-Fa-f_]+|0[oObB][0-7_]+"
NAME_BEFORE = NAME_CHAR + rb"+\Z"
# Two words naming a key, a seed or a security question's answer, as people write them in prose and
# in notes ("API key: ...", "Stripe secret key = ...", "storage key for proddata: ...", "Security
# answer: ..."): the first word says what it opens, so "primary key" or "sort key" are not names. An SSH or deploy key's public half (ssh-ed25519 AAAA...) starts
# with its algorithm's name, a reference (_ALGORITHM), and is kept.
SPACED_KEY_NAME = (
    rb"(?i:(?:api|access|secret|private|signing|encryption|master|account|app|client|consumer|license"
    rb"|auth|service|webhook|storage|deploy|admin|root|ssh|unseal|recovery|fernet|jwt|hmac"
    # A wireless network's password, as routers label it (Wi-Fi key, WPA2 key), and a VPN's shared
    # secret (pre-shared key, IKE's PSK spelled out).
    rb"|wi-?fi|wlan|wpa[23]?|wep|wireless|pre-?shared"
    # A one-time password's secret as authenticator apps name it (setup key, 2FA key), and its seed.
    rb"|setup|authenticator|otp|totp|hotp|2fa|mfa"
    # A blockchain account's private key, by the wallet, chain or role that holds it (deployer
    # key, MetaMask key); its address is named so, never its key.
    rb"|eth|ethereum|" + _WALLET_HOLDER + rb"|" + _KEY_SERVICE + rb") key"
    rb"|(?:otp|totp|hotp|2fa|mfa) seed"
    # A security question's answer (security answer, secret answer).
    rb"|(?:security|secret) answer)"
)
SPACED_KEY_END = rb"(?i:key|seed|answer)"
"""The last word of every name :data:`SPACED_KEY_NAME` takes, so that a check can turn down other
words before it compiles that pattern."""
# A password's name in more than one word, as a sentence ends it: French's three (le mot de passe
# est ..., les mots de passe sont ...), and a passphrase written apart (the pass phrase is ...).
SPACED_PASSWORD_NAME = rb"(?<![A-Za-z0-9_])(?i:mots?[ \t]+de[ \t]+passe|pass[ \t]+phrases?)\Z"
# The words before a "-Key:" or "-Token:" ending that make the header carry a credential, after
# up to three words of vendor prefix (X-Api-Key, X-Auth-Token, Ocp-Apim-Subscription-Key).
KEY_HEADER = (
    rb"(?i:(?:[a-z0-9]+-){0,3}"
    rb"(?:api|auth|access|security|session|vault|private|subscription|functions))"
)
# A field of the same object or list item between a pair's name and its value, as JSON, YAML and
# XML attributes write one ("type": "string", description: the database password, type="string"):
# a key that is not another pair's name or value, and a short scalar, quoted or bare (with spaces
# only when its line ends it, as YAML's); no bracket or brace, so the name and the value are one
# object's; or an HTML attribute that stands alone (<input name="password" required value=...>).
# Each ends with its separator. Bare runs stop at what may follow them, so trying them never
# backtracks into them.
_PAIR_FIELD = (
    rb"(?:(?:required|disabled|readonly|hidden|autofocus|checked|multiple)[ \t]+"
    rb"|[\"']?(?!(?i:(?:parameter)?(?:key|name)|value|default(?:value)?)[\"'\s:=])[A-Za-z_][A-Za-z0-9_-]{0,31}[\"']?[ \t]*[:=][ \t]*"
    rb"(?:(?:\"[^\"\\\r\n{}\[\]]{0,80}\"|'[^'\\\r\n{}\[\]]{0,80}'|[^\s\"'{}\[\],:=]{1,80})"
    rb"(?:[ \t]*,[ \t]*(?:\r?\n[ \t]*)?|[ \t]*\r?\n[ \t]*|[ \t]+)"
    rb"|[^\s\"'{}\[\],#][^\r\n\"'{}\[\]#]{0,79}\r?\n[ \t]*))"
)
# A credential name given as the name of a name/value pair, before its "value" (an XML or HTML
# attribute pair, NuGet's <add key=... value=...>, a Kubernetes env entry on the line above, a JSON
# object's {"name": "DB_PASSWORD", "value": ...} as ECS and Azure's app settings write it,
# CloudFormation's Name and Value, a stack parameter's ParameterKey and ParameterValue), with up to
# four other fields of the pair between them ({"key": "api_key", "type": "secret", "value": ...},
# as a Postman environment holds it; an Azure Pipelines parameter's name, type and default). A
# configuration path's parts before the name (Smtp:Password) leave the last part to be judged.
# Helm's --set gives a list item's name and value as two paths that differ only in their last part
# (env[0].name=DB_PASSWORD,env[0].value=...).
PAIR_NAME = (
    rb"(?<![A-Za-z0-9_-])(?P<path>(?:[A-Za-z_][A-Za-z0-9_-]{0,63}(?:\[[0-9]{1,4}\])?\.){1,4})?"
    rb"(?i:(?:parameter)?(?:key|name))[\"']?[ \t]*[:=][ \t]*[\"']?(?:[A-Za-z_][A-Za-z0-9_]{0,63}:){0,8}"
    rb"(?P<name>[A-Za-z0-9_.-]{1,64})[\"']?"
    rb"(?:(?:[ \t]*,[ \t]*(?:\r?\n[ \t]*)?|[ \t]*\r?\n[ \t]*|[ \t]+)(?:" + _PAIR_FIELD + rb"){1,4}[\"']?\Z"
    rb"|(?:[ \t]+|[ \t]*,[ \t]*(?:\r?\n[ \t]*)?(?(path)(?P=path))|[ \t]*\r?\n(?:[ \t]*-)?[ \t]*)[\"']?\Z)"
)
# A credential's name as the key of an object or a mapping whose value field holds it: an Azure
# Resource Manager parameter ("adminPassword": {"type": "securestring", "defaultValue": ...}, and
# a parameters file's "adminPassword": {"value": ...}), a YAML key with its fields indented below
# it (a GitHub Actions input's description and default), up to four fields before the value.
OBJECT_NAME = (
    rb"(?<![A-Za-z0-9_.-])[\"']?(?P<name>[A-Za-z_][A-Za-z0-9_.-]{0,63})[\"']?[ \t]*:[ \t]*"
    rb"(?:\{[ \t]*(?:\r?\n[ \t]*)?|\r?\n[ \t]+)(?:" + _PAIR_FIELD + rb"){0,4}[\"']?\Z"
)
PAIR_REACH = 320  # how far before "value" the name of its pair or object may start
MAX_NAME = 64
# Cookie attributes name properties of a Set-Cookie header, not values.
COOKIE_ATTRIBUTE = rb"(?i:path|domain|expires|max-age|samesite|secure|httponly|priority|partitioned)"
COOKIE_PAIR = rb"[ \t]*([!#$%&'*+.^_`|~0-9A-Za-z-]{1,64})=([^;\s\"'\\]{0,512})[ \t]*;?"
# Cookies whose name says they carry a session or a login, whatever their value looks like: a
# session id, an auth or remember-me cookie, a CSRF token, a signed ticket; a name of one or two
# letters (Slack's "d"), which says nothing; and the __Host- and __Secure- prefixes, which browsers
# reserve for the cookies a site protects.
SESSION_COOKIE = (
    rb"(?i:__(?:host|secure)-.*|.{1,2}"
    rb"|.*(?:sess|auth|tok|jwt|login|logged|remember|ident|cred|secret|pass|pwd|csrf|xsrf|sso|saml|oidc"
    rb"|oauth|ticket|nonce|grant).*"
    rb"|.*(?<![a-z])(?:sid|sig|key|user|account|acct)(?![a-z]).*)"  # connect.sid, api_key; not sidebar
)
# The names web frameworks give their session cookie (Rails' and GitLab's _app_session, Django's
# sessionid, PHP's PHPSESSID, Java's JSESSIONID, ASP.NET_SessionId, Express's connect.sid, Laravel's
# laravel_session...), which a record may hold outside a Cookie header: a cookie jar, a requests
# cookies={...} dict, a browser's storage panel copied out. Only a generated value counts; a plain
# "session" or "session_id" names a tracing or a database session as often.
SESSION_COOKIE_NAME = (
    rb"_(?:[A-Za-z0-9]+_)*session(?:_id)?|(?:laravel|ci|rack\.)_?session|sessionid|SESSIONID"
    rb"|PHPSESSID|JSESSIONID|ASP\.NET_SessionId|[A-Za-z0-9_-]{1,32}\.sid"
)
COOKIE_SEPARATOR = rb"(?P<end>)\\{0,3}[\"']?[ \t]*(?:=|:(?![:/]))[ \t]*"
# A Kubernetes Secret's data: a "data:" line (kubectl prints it before "kind: Secret"), then its
# entries, one to a line and indented past it, each a key and its value in base64 (on the next
# line after a block marker). Comment lines may stand between them.
SECRET_DATA = rb"(?m:^)(?P<indent>[ \t]{0,64})data:[ \t]*\r?\n"
SECRET_ENTRY = (
    rb"(?P<indent>[ \t]{1,64})(?:#[^\r\n]{0,1024}|[\"']?[A-Za-z0-9._-]{1,253}[\"']?:[ \t]*(?P<value>[^\s#][^\r\n]{0,2048})?)"
    rb"(?:\r?\n|\Z)"
)
BASE64_DATA = rb"[\"']?[A-Za-z0-9+/]{10,}={0,2}[\"']?[ \t]*"
MAX_ENTRIES = 64

# Tools whose short option carries the password, by the option that carries it. The same letter
# means something else to other tools (ssh -p 2222 and psql -p 5432 name a port, mysql -P 3306
# too, zip -r recurses), so an option counts only after a tool that reads a password there.
PASSWORD_TOOL = (
    rb"(?<![A-Za-z0-9_-])(?:(?P<separate>sshpass|(?:docker|podman|oras|nerdctl) login|helm registry login|twine"
    rb"|vsce|ovsx|conan remote login|conan user"
    rb"|mongosh|mongo(?:dump|restore|export|import|stat|top|files)?|rdesktop|rabbitmqadmin|[Pp]s[Ee]xec(?:64)?(?:\.exe)?|[Pp]a[Ee]xec(?:\.exe)?)"
    rb"|(?P<attached>mysql(?:dump|admin|import|check|sh|pump)?|mariadb(?:-dump|-admin|dump)?|7z[arz]?)"
    rb"|(?P<rar>(?:un)?rar)|(?P<codecov>codecov)"
    rb"|(?P<redis>redis-cli)|(?P<ldap>ldap[a-z]{2,12})"
    rb"|(?P<mssql>sqlcmd|bcp|osql|isql)|(?P<archive>zip|unzip|zipcloak)|(?P<keygen>ssh-keygen)"
    rb"|(?P<samba>smbclient|rpcclient|smbcacls|smbget|smbtree|net(?= (?:ads|rpc)\b))"
    rb"|(?P<azure>az login)|(?P<openssl>openssl)"
    rb"|(?P<nuget>dotnet nuget (?:push|delete)|choco(?:latey)?(?:\.exe)? (?:push|apikey))"
    rb"|(?P<keychain>security[ \t]+add-(?:generic|internet)-password)"
    rb"|(?P<unlock>security[ \t]+(?:unlock|create|set-keychain-password)-keychain|security[ \t]+set-key-partition-list)"
    rb"|(?P<ipmi>ipmitool)"
    rb"|(?P<snmp>snmp(?:walk|bulkwalk|get|getnext|bulkget|set|table|trap|inform|delta|df|netstat|status|usm|vacm)))(?![A-Za-z0-9_-])"
)
OPTION_TOOL = {
    # az login -p: the password (or a certificate's path); macOS security unlock-keychain -p, create-keychain -p,
    # set-key-partition-list -k: the keychain's password
    ord("p"): ("separate", "attached", "azure", "rar", "unlock"),
    ord("h"): ("rar",),  # rar -hpVALUE: the password that also encrypts the headers
    ord("t"): ("codecov",),  # codecov -t: the upload token
    ord("k"): ("openssl", "nuget", "unlock"),  # openssl enc -k: the passphrase; a package feed's API key
    ord("a"): ("redis",),
    ord("w"): ("ldap", "keychain"),  # macOS security add-generic-password -w: the password
    ord("P"): ("mssql", "archive", "keygen", "ipmi"),  # ssh-keygen -P: the old passphrase; ipmitool -P
    ord("N"): ("keygen",),  # the new passphrase
    ord("U"): ("samba",),  # -U user%password
    ord("A"): ("snmp",),  # SNMPv3's authentication passphrase
    ord("X"): ("snmp",),  # and its privacy passphrase
    ord("c"): ("snmp",),  # SNMPv1's and v2c's community, which is its password
}
MAX_COMMAND = 256
# A value a command line echoes into a tool that reads the password from its input (echo "..." |
# docker login --password-stdin, printf '...' | sudo -S, printf '%s' '...' | kinit): the last echo
# or printf before the pipe, after printf's format when that only prints its argument.
_ECHO_FORMAT = rb"(?:[ \t]+(?:'%s(?:\\n)?'|\"%s(?:\\n)?\"|%s))?"


def _echoed_value(stops: bytes) -> bytes:
    """Options of echo, then the value it prints: quoted, or bare up to white space or ``stops``."""
    return (
        rb"(?:[ \t]+-[neE]{1,3})*[ \t]+"
        rb"(?:\"(?P<double>[^\"\r\n]{1,256})\"|'(?P<single>[^'\r\n]{1,256})'|(?P<bare>[^\s" + stops + rb"]{1,256}))[ \t]*"
    )


ECHOED = rb"(?<![A-Za-z0-9_-])(?:echo|printf" + _ECHO_FORMAT + rb")" + _echoed_value(rb"|;&\"'") + rb"\|"
# A value echoed into a file (echo "..." > ~/.vault-pass, printf '%s' '...' > secrets/db_password.txt):
# one rule for each word, whose literal leads it; the check judges the file's name.
ECHOED_INTO = tuple(
    word_start(word, rest + _echoed_value(rb"|;&<>\"'") + rb">>?[ \t]*(?P<file>[^\s|;&<>\"'`]{1,256})", gap=rb"[A-Za-z0-9_-]")
    for word, rest in ((b"echo", b""), (b"printf", _ECHO_FORMAT))
)

_TOOL_GAP = rb"[A-Za-z0-9_-]"
STDIN_READERS = (
    rb"--password-stdin",
    word_start(rb"sudo", rb"[ \t]+(?:-[A-Za-z]*S|--stdin)(?![A-Za-z0-9_-])", gap=_TOOL_GAP),
    word_start(rb"chpasswd", rb"", gap=_TOOL_GAP),
    word_start(rb"passwd", rb"[ \t]+--stdin", gap=_TOOL_GAP),
    # passwd with no option reads the new password (twice) from a pipe where it is the command
    # (echo -e "...\n..." | passwd ann), not where it is a file's name (grep root /etc/passwd);
    # with an option it does something else (passwd -S, passwd --help).
    rb"passwd(?:(?<=\|passwd)|(?<=\| passwd)|(?<=sudo passwd)|(?<=\npasswd)|(?<=^passwd))(?![A-Za-z0-9_.-])(?![ \t]+-)",
    # Tools that read a password or passphrase from their input when told to, or always when it is
    # not a terminal: smbpasswd -s, vncpasswd -f, htpasswd -i, openssl passwd -stdin, mkpasswd -s,
    # kinit, cryptsetup, gpg --passphrase-fd 0, pass insert, gopass insert, keepassxc-cli (the
    # database's password).
    *(
        word_start(tool, rest, gap=_TOOL_GAP)
        for tool, rest in (
            (b"smbpasswd", rb"(?:[ \t]+-[A-Za-z]{1,8})*?[ \t]+-[A-Za-z]*s"), (b"vncpasswd", rb"[ \t]+-f"),
            (b"htpasswd", rb"(?:[ \t]+-[A-Za-z]{1,8})*?[ \t]+-[A-Za-z]*i"), (b"openssl passwd", rb"(?:[ \t]+\S{1,32}){0,4}?[ \t]+-stdin"),
            (b"mkpasswd", rb"(?:[ \t]+\S{1,32}){0,4}?[ \t]+(?:-s|--stdin)"), (b"kinit", rb""),
            (b"cryptsetup", rb""), (b"pass", rb"[ \t]+insert"), (b"gopass", rb"[ \t]+insert"),
            (b"keepassxc-cli", rb""),
        )
    ),  # fmt: skip
    # An option that reads a password, a passphrase, a secret or a token from a file, given the
    # input's (restic --password-file /dev/stdin, --vault-password-file=/dev/stdin), and
    # OpenSSL's -passin stdin (or fd:0).
    *(
        word + rb"(?<=-" + word + rb")(?:[ \t]+|=)/dev/(?:stdin|fd/0)(?![A-Za-z0-9_./-])"
        for word in (b"password-file", b"passphrase-file", b"pass-file", b"secret-file", b"token-file")
    ),
    word_start(rb"-pass", rb"(?:in|out)[ \t]+(?:stdin|fd:0|file:/dev/stdin)(?![A-Za-z0-9_./:-])", gap=_TOOL_GAP),
    word_start(rb"--passphrase-fd", rb"[ \t=]+0(?![0-9])", gap=_TOOL_GAP),
    # Tools that store what they read as a secret: docker secret create NAME -, gcloud secrets
    # create|versions add NAME --data-file=-, wrangler secret put NAME, gh secret set NAME,
    # firebase functions:secrets:set NAME, systemd-creds encrypt - NAME, secret-tool store
    # ATTRIBUTES, keyctl padd TYPE NAME KEYRING, ansible-vault encrypt_string (--stdin-name NAME),
    # doppler secrets set NAME; and
    # vercel env add NAME when the name holds a credential word and is not one the browser is
    # given (NEXT_PUBLIC_, PUBLIC_, VITE_), as its variables are settings as often as secrets.
    word_start(
        rb"vercel env",
        rb"[ \t]+add[ \t]+(?!(?:NEXT_PUBLIC|PUBLIC|VITE)_)(?=[A-Za-z0-9_]*(?i:key|token|secret|pass|pwd|auth|cred))"
        rb"[A-Za-z0-9_]+(?![A-Za-z0-9_-])",
        gap=_TOOL_GAP,
    ),
    *(
        word_start(tool, rb"[ \t]+" + verb + rb"(?![A-Za-z0-9_-])", gap=_TOOL_GAP)
        for tool, verb in (
            (b"docker secret", b"create"), (b"podman secret", b"create"), (b"gcloud secrets", rb"(?:create|versions[ \t]+add)"),
            (b"wrangler secret", b"put"), (b"gh secret", b"set"), (b"firebase", rb"functions:secrets:set"),
            (b"systemd-creds", b"encrypt"), (b"secret-tool", b"store"), (b"keyctl", rb"p(?:add|update|instantiate)"),
            (b"ansible-vault", b"encrypt_string"), (b"doppler secrets", b"set"),
        )
    ),  # fmt: skip
    # ... and where an argument says to read the input: kubectl create secret ... --from-file=
    # KEY=/dev/stdin, vault kv put PATH KEY=- (vault write too).
    word_start(rb"kubectl create secret", rb"[^|;&\r\n]{0,160}?[ \t]--from-file=(?:[A-Za-z0-9._-]{1,64}=)?/dev/stdin", gap=_TOOL_GAP),
    word_start(rb"vault", rb"[ \t]+(?:kv[ \t]+put|write)[^|;&\r\n]{0,160}?[ \t][A-Za-z0-9_.-]{1,64}=-(?![^ \t\r\n])", gap=_TOOL_GAP),
    # base64 makes a Basic Authorization header's credentials of a user:password pair.
    word_start(rb"base64", rb"(?![A-Za-z0-9_.-])", gap=_TOOL_GAP),
)
"""Tools that read a password or a secret from their input, each a pattern that starts with its
literal: a value echoed into one (:data:`ECHOED`) or given as a here-string (:data:`HERE_STRING`)
is the secret."""
STDIN_READER = b"|".join(STDIN_READERS)
# A here-string's value (tool <<< "..."), in the three ways ECHOED reads an echoed one.
HERE_STRING = rb"<<<[ \t]*(?:\"(?P<double>[^\"\r\n]{1,256})\"|'(?P<single>[^'\r\n]{1,256})'|(?P<bare>[^\s|;&\"'<>]{1,256}))"
# A here-document's first line (tool <<EOF, <<-'EOF', <<"END"), one word as the tool reads it, and
# its delimiter word (``tag``), which a document with no line before it ends with.
HERE_DOCUMENT = (
    rb"<<-?[ \t]*(?P<quote>[\"']?)(?P<tag>[A-Za-z_][A-Za-z0-9_]{0,31})(?P=quote)[^\r\n]{0,256}\r?\n"
    rb"[ \t]*(?P<bare>[^\s|;&\"'<>]{1,256})[ \t]*(?:\r?\n|\Z)"
)
