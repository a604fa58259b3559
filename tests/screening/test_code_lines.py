"""Code that names a credential without holding one: lines a coding agent may well write into a
record, taken from the source of widely used Python packages (requests, httpx, httpcore, pip,
jinja2, pytest, hypothesis, pydantic, openai, langsmith, mcp), where the screen used to refuse
them. Beside each, the same form carrying a literal value is still refused; and a literal that
code falls back to (``process.env.API_KEY || "..."``, ``${DB_PASSWORD:-...}``) is a value."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_credentials import credential_values
from .test_sentences import mixed

CODE_FROM_PACKAGES = [
    # a template or a variable in an Authorization header
    'headers["Authorization"] = f"Bearer {api_key}"',
    "headers = {'Authorization': f'Bearer {token}'}",
    'request.headers["Authorization"] = f"Bearer {self._tokens.access_token}"',
    'headers["Authorization"] = f"Basic {encoded_credentials}"',
    'r.headers["Authorization"] = _digest_auth',
    'authorization = b"Basic " + base64.b64encode(userpass)',
    # a variable passed on or kept under its own name
    "encryption_key=encryption_key,",
    "authorization=authorization,",
    "authorization=dest.authorization,",
    "self.service_key = service_key",
    '"service_key": service_key,',
    "self._expected_authorization = expected_authorization",
    "username, password = request.url.username, request.url.password",
    # unpacked from another value, or an attribute of the object
    "username, password = proxy_auth",
    # C's and PHP's member access, in a call's arguments or alone, and a PHP variable (git's
    # credential helpers, a PHP login form)
    "c->password = gnome_keyring_memory_strdup(password_data->password);", "cfg->token = xstrdup(opts->token);",
    "$password = trim($row->password);", "$password = $row->getPassword();", "c->password = data->password;",
    "$api_key = sanitize_text_field($_POST['api_key']);",
    # a variable in snake case passed on as a keyword argument or under a quoted key (langsmith,
    # anthropic, google-auth)
    '"kwargs": {"token": traced_item},', "return _copy_client_with_bearer_auth(client, auth_token=environment_key, helper=h)",
    'headers = {"X-aws-ec2-metadata-token": imdsv2_session_token}',
    "- username, password = proxy_auth",  # as a note lists code: after a list item's marker
    "* `user, pw = creds` unpacks them",  # or in inline code
    "mode, credential = configuration",
    "ns, tool_call_id, token = info",
    "token = self.stream.current",
    # a variable holding a key, used as one
    "report.__dict__[STATS_KEY] = stats",
    "ctx.meta[LANG_KEY] = value",
    "self._listeners[token] = listener",
    # a type, a private name, a header's name, the word code uses for "the value"
    "auth: _BedrockBearerAuth | _BedrockSigV4Auth | None = None",
    'STATS_KEY = "_hypothesis_stats"',
    "ROOT_KEY = '__root__'",
    '"x-api-key": "X-API-Key",',
    'X_API_KEY = "x-api-key"',
    "api_key = value",
    "self._secret_value = value",
    # one character is no value
    "token = 0",
    '"token": i,',
    "SCANNING_KEY = 4",
]

LITERALS_IN_CODE = [
    'headers["Authorization"] = f"Bearer 9f8e7d6c5b4a3f2e1d0c"',
    'headers["Authorization"] = "Basic dXNlcjpwYXNz"',
    'api_key = "FAKEk3y0123456789"',
    'self.password = "Tr0ub4dor&3"',
    'username, password = "admin", "hunter2"',
    "user, password = admin, Hunter2024",  # values written out, not names unpacked
    "password = password_2",
    "api_key=api_key2",
    'meta["API_TOKEN"] = "s3cr3tV4lue"',
    "{password: hunter2}",
    "password=hunter2}",
    "token = a1",
    'STATS_KEY = "FAKEk3y0123456789"',
    '"x-api-key": "FAKEk3y0123456789",',
    # Lists of pairs, subscripts with a literal, table cells and bracketed passwords: values, not code.
    "user=admin, password=Hunter2024",
    "host=db.internal, user=admin, password=Pr0dPassw0rd",
    "login as admin, password = Welcome2024",
    "user, password = admin, letmein123",
    "- user, password = admin, Hunter2024",
    "- password = proxy_auth",  # one target after a list item's marker: a value, as at a line's start
    'params[:password] = "Hunter2024!"',
    'settings[SECRET_KEY] = "django-insecure-8f7a6b5c4d3e2f1a0b9c"',
    'creds[password]="Tr0ub4dor&3"',
    "| staging | password: Welcome2024 | admin |",
    "DB_PASSWORD: Winter2024 | prod",
    '"password": "Xk9{abcQ}"',
    "DB_PASSWORD=aB3{x9Q}",
    "api_key=k2J<8sd9FqL>",
    "DB_PASSWORD=this.is.prod.2024",
    "password: this.IsMySecret2024",
    "DB_PASSWORD=_correcthorsebatterystaple",
    "DB_PASSWORD=X-TrustNoOne",
    # Maps, keyword arguments and shell arrays with word-only passwords: not annotations or unpacking.
    "{user: admin, password: Swordfish, host: db}",
    "- password: Swordfish, user: admin",
    "db creds (user: app, password: Opensesame)",
    "vault_token: Swordfish)",
    "connect(admin, password=Swordfish)",
    "def login(user, password=Swordfish):",
    "declare -A db; db[password]=opensesame",
    # A tag after the value is markup, not a redaction marker.
    "Password: Hunter2024<br>\nUser: admin",
    "api_key: 9f8e7d6c5b4a3f2e<br>",
    "DB_PASSWORD=Sup3rS3cret<prod>",
    # Words joined by "_" with a number among them, or given with spaces or at a line's end: values.
    "f(password=summer_2024)", "connect(password=hunter_2024, host=h)", "password = correct_horse_battery",
    '{"password": Tr0ub4dor_3}', "password=correct_horse_battery",
    # a member's arrow inside a value that is no call in code's case, or given a literal
    "password = Xk9(mQ2->zL)", "password = hunter(2->3)", 'c->password = "Tr0ub4dor&3";', "$password = 'Tr0ub4dor&3';",
]


@pytest.mark.parametrize("line", CODE_FROM_PACKAGES)
def test_code_that_only_names_a_credential_is_kept(line: str) -> None:
    assert find_secret(line) is None


@pytest.mark.parametrize("line", LITERALS_IN_CODE)
def test_the_same_forms_with_a_literal_value_are_refused(line: str) -> None:
    assert find_secret(line) is not None


IDENTIFIER_NAMES = ["password", "api_key", "secret", "access_token", "client_secret", "dbPassword", "AUTH_TOKEN"]
NAME_FORMS = ["{n}={n}", "{n} = {n}", "self.{n} = {n}", "self._{n} = {n}", '"{n}": {n},', "{n}=request.{n}", "a, {n} = b"]
VALUE_FORMS = ["{n}={v}", "{n} = {v}", "self.{n} = {v}", '"{n}": {v},', "a, {n} = {v}"]


@given(name=st.sampled_from(IDENTIFIER_NAMES), form=st.sampled_from(NAME_FORMS))
def test_a_name_given_to_itself_is_kept(name: str, form: str) -> None:
    assert find_secret(form.format(n=name)) is None


@pytest.mark.parametrize(
    "text", ["client.login(username=user, password=pw)", "password = pw", "self.password = pw", "connect(host, password=pwd)", "api_key = key"]
)
def test_a_short_name_of_the_credential_given_to_it_is_kept(text: str) -> None:
    # pw, pwd and key are what code calls the variable that holds a password or a key
    assert find_secret(text) is None, text


@given(
    name=st.sampled_from(IDENTIFIER_NAMES),
    form=st.sampled_from(VALUE_FORMS),
    value=credential_values.filter(lambda v: not set(v) <= set(string.ascii_letters + string.digits + "_")),
)
def test_a_value_that_is_no_identifier_is_refused_in_every_code_form(name: str, form: str, value: str) -> None:
    # A value with a symbol in it cannot be a variable, whatever form of code it stands in.
    assert find_secret(form.format(n=name, v=value)) == "credential_assignment"


# A literal the credential falls back to when its reference is unset, and a shell parameter's
# default: the value is in the file, whatever the environment holds.
FALLBACK_FORMS = [
    'const apiKey = process.env.API_KEY || "{v}";', "const apiKey = process.env.API_KEY ?? '{v}'",
    'const apiKey: string = process.env.API_KEY || "{v}";', 'password = os.getenv("DB_PASSWORD") or "{v}"',
    'val token = System.getenv("TOKEN") ?: "{v}"', 'export const config = {{ apiKey: process.env.API_KEY || "{v}" }}',
    "POSTGRES_PASSWORD: ${{POSTGRES_PASSWORD:-{v}}}", 'DB_PASSWORD="${{DB_PASSWORD:-{v}}}"',
    # the name's own variable, and a chain of references
    'password = password or "{v}"', 'api_key = settings.api_key or os.environ.get("API_KEY") or "{v}"',
    'const apiKey = process.env.API_KEY || process.env.KEY || "{v}";',
    # the lookup names the credential where the name it is given to does not
    'const key = process.env.API_KEY || "{v}";', 'const secret = import.meta.env.VITE_SECRET ?? "{v}";',
    'cfg.key = process.env["STRIPE_SECRET_KEY"] || \'{v}\'', 'key = os.environ.get("API_KEY") or "{v}"',
    '$pw = getenv(\'DB_PASSWORD\') ?: \'{v}\';', 'var key = Environment.GetEnvironmentVariable("API_KEY") ?? "{v}";',
    'token = ENV["GITHUB_TOKEN"] || "{v}"', 'const t = Deno.env.get("API_TOKEN") ?? "{v}";',
    # a triple-quoted string holds its value as a quoted one does
    'password = """{v}"""', "SECRET_KEY = r\'\'\'{v}\'\'\'",
]  # fmt: skip


# A name declared with a type before its "=": Python's annotations (a pydantic settings class's
# fields), TypeScript's, Swift's and Kotlin's, Rust's &str, Go's var NAME TYPE, Visual Basic's NAME
# As TYPE.
TYPED_FORMS = [
    'api_key: str = "{v}"', '    password: Optional[str] = "{v}"', 'token: str | None = "{v}"', 'SECRET_KEY: Final = "{v}"',
    'private readonly apiKey: string = "{v}";', 'let apiKey: String = "{v}"', 'val apiKey: String? = "{v}"',
    "const API_KEY: &'static str = \"{v}\";", 'var apiKey string = "{v}"', 'def login(user, password: str = "{v}"):',
    # TypeScript's optional property
    'private password?: string = "{v}";', 'apiKey?: string = "{v}"',
    # assignments whose operator starts before its "=": Make's ?= and ::=, ??=, ||= and &&=
    "DB_PASSWORD ?= {v}", "DB_PASSWORD ::= {v}", 'options.password ??= "{v}";', 'password ||= "{v}"', '@api_key ||= "{v}"',
    'config.token &&= "{v}"',
    # Visual Basic's declarations, their type after "As"; R's assignment arrows
    'Dim password As String = "{v}"', 'Private Const ApiKey As String = "{v}"', 'Public Shared ReadOnly Token As String = "{v}"',
    'dim pwd as string = "{v}"', 'api_key <- "{v}"', 'password <<- "{v}"', 'db_password<-"{v}"',
    # SQL's declared variables, with a type and a size, and its prefixed strings (N'...', E'...')
    "DECLARE @pwd NVARCHAR(50) = '{v}';", "declare @api_key as varchar(64) = '{v}'", "DECLARE @password NVARCHAR(MAX) = N'{v}';",
    "SET @password = N'{v}';", "password = E'{v}'",
    # C++'s variables built from a literal in brackets, with their type before them (Qt's, an Arduino sketch's)
    'std::string token("{v}");', 'std::string token{{"{v}"}};', 'QString password("{v}");', 'String apiKey("{v}");',
    'const std::wstring password(L"{v}");',
]  # fmt: skip


# A Terraform variable named as a credential, with a default written in the file.
TERRAFORM_DEFAULTS = [
    'variable "db_password" {{\n  type      = string\n  default   = "{v}"\n  sensitive = true\n}}',
    'variable "api_token" {{ default = "{v}" }}', 'variable "github_token" {{\n  description = "CI"\n  default = "{v}"\n}}',
    # after a nested block has closed, and after an interpolation's braces
    'variable "db_password" {{\n  type = string\n  validation {{\n    condition     = length(var.db_password) > 8\n'
    '    error_message = "too short"\n  }}\n  default = "{v}"\n}}',
    'variable "db_password" {{\n  description = "the ${{var.env}} password"\n  default = "{v}"\n}}',
]  # fmt: skip


# A literal code gives a credential as its default: by keyword in a call, on one line or over
# several (python-decouple, django-environ, configparser, argparse, pydantic), after a template's
# filter (Jinja and Ansible, Helm) or a lookup's method (Rust), as a field's first argument; and one
# wrapped in pydantic's secret types, whatever holds it.
DEFAULT_FORMS = [
    'SECRET_KEY = config("SECRET_KEY", default="{v}")', "SECRET_KEY = env.str('DJANGO_SECRET_KEY', default='{v}')",
    'password = cfg.get("db", "password", fallback="{v}")', 'parser.add_argument("--api-key", default="{v}")',
    'api_key: str = Field(default="{v}")', '    api_key: str = Field(\n        default="{v}",\n        description="Key",\n    )',
    'api_key: str = Field("{v}", description="the key")', 'click.option("--token", default="{v}", help="CI token")',
    "password: \"{{{{ lookup('env', 'DB_PASSWORD') | default('{v}') }}}}\"",
    'password: {{{{ .Values.db.password | default "{v}" }}}}', 'let key = env::var("API_KEY").unwrap_or("{v}".to_string());',
    'let token = std::env::var("GITHUB_TOKEN")\n    .unwrap_or_else(|_| "{v}".into());', 'password = SecretStr("{v}")',
    'db_password: SecretStr = SecretStr("{v}")', 'token: SecretStr = Field(default=SecretStr("{v}"))',
    'Settings(api_secret=SecretBytes(b"{v}"))', 'config.secret_key_base = ENV.fetch("SECRET_KEY_BASE") {{ "{v}" }}',
    # what a conditional expression gives otherwise, to the name it is assigned or given to
    'password = os.getenv("PW") if prod else "{v}"', 'API_KEY = os.environ.get("API_KEY") if not DEBUG else \'{v}\'',
    'val apiKey: String = if (prod) System.getenv("KEY") else "{v}"', '    "password": os.environ["PW"] if prod else "{v}",',
    'db = connect(host=h, password=os.getenv("PW") if prod else "{v}")', 'Client(api_key=key if key else "{v}", timeout=5)',
    # what a ternary gives in either branch
    'const password = isProd ? process.env.DB_PASSWORD : "{v}";', 'apiKey = debug ? "{v}" : System.getenv("KEY");',
    'String password = prod ? System.getenv("PW") : "{v}";', '$password = $prod ? getenv("PW") : \'{v}\';',
    'const cfg = {{ password: isProd ? env.PW : "{v}" }};', 'const token = env === "prod" ? process.env.TOKEN : "{v}";',
    'var secret = (a && b) ? "{v}" : other;', '  apiKey: process.env.CI ? "{v}" : undefined,',
    # a password given first to code that hashes or checks one, or alone to code that sets one
    'hashed = hash_password("{v}")', 'assert check_password("{v}", user.password)', "hashPassword('{v}')",
    'bcrypt.hashpw(b"{v}", bcrypt.gensalt())', "const hash = await bcrypt.hash('{v}', 10);", "bcrypt.compareSync('{v}', hash)",
    'pwd_context.verify("{v}", hashed)', "$hash = password_hash('{v}', PASSWORD_DEFAULT);", "Hash::make('{v}')",
    "'password' => bcrypt('{v}'),", 'make_password("{v}")', 'generate_password_hash("{v}")',
    'user.set_password("{v}")', 'config.setPassword("{v}");', 'new MySQLContainer<>("mysql:8").withPassword("{v}")',
    # a JSON Web Token's signing secret, the second argument (PyJWT, Ruby's jwt, Node's jsonwebtoken)
    'token = jwt.encode(payload, "{v}", algorithm="HS256")', 'claims = jwt.decode(token, "{v}", algorithms=["HS256"])',
    "const t = jwt.sign(payload, '{v}', {{ expiresIn: '1h' }});", 'jwt.verify(token, "{v}")', "JWT.encode(payload, '{v}', 'HS256')",
    # werkzeug's check_password_hash, whose password comes second
    'assert check_password_hash(user.pw_hash, "{v}")', "check_password_hash(row['hash'], '{v}')",
    # Django's user made with a password as its third argument; what a Ruby block gives the name
    'User.objects.create_user("ann", "ann@example.com", "{v}")', "create_superuser('admin', None, '{v}')",
    'factory :user do\n  password {{ "{v}" }}\nend', "  password_confirmation {{ '{v}' }}", 'let(:password) {{ "{v}" }}',
    "let!(:api_token) {{ '{v}' }}",
]  # fmt: skip


@given(form=st.sampled_from(FALLBACK_FORMS + TYPED_FORMS + TERRAFORM_DEFAULTS + DEFAULT_FORMS), value=mixed)
def test_a_literal_code_gives_a_credential_is_refused(form: str, value: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # empty, placeholder and word defaults, references, and other names
        'const apiKey = process.env.API_KEY || "";', 'const apiKey = process.env.API_KEY || "none";',
        'password = os.getenv("DB_PASSWORD") or "dev"', 'const region = process.env.REGION || "Eu-West-1"',
        "password: ${DB_PASSWORD:-changeme}", "POSTGRES_PASSWORD=${POSTGRES_PASSWORD:-password}",
        "password: ${DB_PASSWORD:-}", "password: ${DB_PASSWORD:-$FALLBACK}", "password: ${DB_PASSWORD:-${OTHER}}",
        "password: ${DB_PASSWORD:+set}", "password: ${DB_PASSWORD:?must be set}",
        # a comparison, and prose
        'if (apiKey == process.env.X || "Xk9vQ2mN5p") {}', 'the password is hunter or "Xk9vQ2mN5p"',
        'if (process.env.API_KEY || "Xk9vQ2mN5p") {}', 'while os.getenv("API_KEY") or "Xk9vQ2mN5p":',
        # a fallback of another lookup or of no lookup, and a triple-quoted string that opens a block
        'const label = process.env.LABEL || "Default-Label-2";', 'const msg = err.token || "Unknown-error-42";',
        'url = os.getenv("DATABASE_URL") or "sqlite:///dev2.db"', 'token = os.getenv("TOKEN") or "${TOKEN}"',
        'description = """Password-reset flow v2"""', 'password = """\nnot on this line\n"""',
        # another plain variable before the literal: a choice between values, not a fallback
        'password = user or "Tr0ub4dor&3"', 'x = a or "Tr0ub4dor&3"', 'api_key = a or b or "Xk9vQ2mN5p"',
        # typed code gives its defaults as code, and an empty string
        "api_key: str | None | _UnsetType = _UNSET,", "credentials: GoogleCredentials | None | NotGiven = not_given,",
        "api_key: str | None = None", 'password: str = ""', "api_key: SecretStr = Field(..., alias='API_KEY')",
        "def f(token: str = DEFAULT_TOKEN):", "x: int = 5",
        # a colon that ends a block's header is no annotation
        "for token in tokens: count = total2", "if token: count = total2",
        # a key constant typed as final that names what it looks up, an acronym among its words
        "MCP_APP_METADATA_KEY: Final = 'mcp_app'", 'INTERNAL_CALL_METADATA_KEY = "lc_internal_call"',
        # Terraform defaults of other variables, empty, a placeholder, a reference, or no block
        'variable "region" {\n  default = "eu-west-1"\n}', 'variable "api_token" {\n  default = ""\n}',
        'variable "db_password" {\n  default = "changeme"\n}', 'variable "db_password" {\n  default = var.fallback\n}',
        'variable "db_password" {}\nvariable "region" {\n  default = "Xk9vQ2mN5p"\n}', 'default = "Xk9vQ2mN5p"',
        'variable "db_password" {\n  validation {\n    default = "Xk9vQ2mN5p"\n  }\n}',
        # a default of another name, a default that is code or empty, and a default outside a call
        'model = config("MODEL", default="gpt-4o-mini")', 'parser.add_argument("--tokenizer", default="cl100k_base")',
        'api_key: str = Field(default=None)', "api_key: str = Field(default=...)", 'api_key: str = Field(default="")',
        'parser.add_argument("--token", default=os.environ.get("TOKEN"))', 'password = SecretStr("")',
        'password = SecretStr(os.environ["DB_PASSWORD"])', 'level = cfg.get("log", "level", fallback="INFO-2")',
        'region: {{ .Values.region | default "eu-west-1" }}', 'let home = env::var("HOME").unwrap_or("/root/x1".into());',
        'token_url: str = Field(default="https://auth.example.com/oauth/token2")', '(password, default="Xk9vQ2mN5p")',
        'name: str = Field("Deploy-Bot", description="the bot")', "default: Xk9vQ2mN5p", "Use | default('Xk9vQ2mN5p') in templates.",
        'port = ENV.fetch("PORT") { "3000" }', 'max_threads = ENV.fetch("RAILS_MAX_THREADS") { 5 }',
        'label = "Password" if shown else "Hidden1"', 'x = f(password=pw) if c else "Xk9vQ2mN5p"',
        'password = os.getenv("PW") if prod else ""', 'val key = if (prod) System.getenv("KEY") else "Xk9vQ2mN5p"',
        'connect(password=pw, label="Password" if shown else "Hidden1")',
        # a ternary given to another name, or whose literal is empty; a quoted word before its colon is no key
        'const label = shown ? "Password" : "Hidden1x";', 'f(shown ? "Password" : "Xk9vQ2mN5p")',
        'opts = {label: shown ? "Password" : "Xk9vQ2mN5p"}', 'title = isNew ? "Set password" : "Change-Pw2";',
        'const token = cond ? "" : other;', 'password = prod ? process.env.PW : "changeme";',
        # what code gives a password function that is no literal, the literal not first, or not alone to a setter
        "user.set_password(password)", 'config.setPassword(System.getenv("DB_PASSWORD"));', "hash_password(password)",
        "Hash::make($request->password)", 'password_hash($password, PASSWORD_DEFAULT)', "bcrypt.hash(password, 10)",
        'set_password("Xk9vQ2mN5p", user)', 'keyring.set_password("svc2", "ann", pw)', 'make_password(None)',
        'check_password_hash(user.hash, password)', 'user.set_password("")', '.withPassword("test")',
        'check_password_hash(user.hash, "")', 'check_password_hash(stored, pw)',
        'create_user("ann", "ann@example.com", password)', 'create_user("ann", "ann@example.com")',
        "password { Faker::Internet.password }", 'let(:password) { SecureRandom.hex }', 'let(:name) { "Xk9vQ2mN5p" }',
        'items.each { "Xk9vQ2mN5p" }', 'foo(password) { "Xk9vQ2mN5p" }', 'x = password { "Xk9vQ2mN5p" }',
        'sequence(:password) { |n| "pass#{n}" }',
        # a token signed or checked with a secret that is code, none, a word or jwt.io's stand-in
        'jwt.encode(payload, SECRET_KEY, algorithm="HS256")', 'jwt.sign(payload, process.env.JWT_SECRET)',
        'jwt.encode(payload, "secret", algorithm="HS256")', 'jwt.verify(token, "your-256-bit-secret")',
        'jwt.decode(token, options={"verify_signature": False})', 'jwt.decode(token, "")', "JWT.encode(payload, nil, 'none')",
        'conn.simple_bind_s("cn=admin,dc=example,dc=org", password)', "conn.simple_bind_s()",
        # such operators and optional properties given code, a variable or a type
        "token ?= $(shell cat .token)", "DB_PASSWORD ?= $(DB_PW)", "token ||= fetch_token()", "@token ||= ENV['TOKEN']",
        "options.password ??= process.env.DB_PASSWORD;", "password?: string = undefined", "interface Opts { password?: string }",
        "Dim password As String = txtPassword.Text", 'Dim password As String = ""', 'Dim label As String = "Xk9vQ2mN5p"',
        'token <- Sys.getenv("GITHUB_PAT")', 'password <- readline("Password: ")', "token <- getToken", 'tokens <- c("a", "b")',
        "x <- password", "password <-- the field to fill",
        "DECLARE @password_length INT = 12;", "DECLARE @pwd NVARCHAR(50) = @input;", "DECLARE @pwd NVARCHAR(50) = '';",
        "DECLARE @name NVARCHAR(50) = 'Xk9vQ2mN5p';", "DECLARE @pwd NVARCHAR(50) = N'';",
        # a placeholder's N or E before Markdown's closing backtick is no string's prefix
        "-token N` (8), `--mcp-session-idle S` (600) |", "`--password N` sets it", "`--api-key E` (`ENV`)",
        'std::string password(getpass("Password: "));', 'return token("Xk9vQ2mN5p");', 'auto t = password("Xk9vQ2mN5p");',
        'std::string token("abc" + suffix);', 'QString password(tr("Enter password"));', 'std::string password("");',
        'std::string tokenizer("Xk9vQ2mN5p");', 'EXPECT_EQ(password("Xk9vQ2mN5p"), 1);', 'puts token("Xk9vQ2mN5p")',
        'the function password("Xk9vQ2mN5p") returns',
        # gtest's names: a test named for a credential, and a literal in a test's body
        "TEST(Auth, Token) { EXPECT_TRUE(check(\"Xk9vQ2mN5p\")); }",
    ],
)  # fmt: skip
def test_code_that_gives_a_credential_no_literal_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "DECLARE @pwd NVARCHAR(50) = 'Xk9mQ2vLp7Rt';",
        "DECLARE @password NVARCHAR(MAX) = N'Xk9mQ2vLp7Rt';",
        "declare @api_key as varchar(64) = 'Xk9mQ2vLp7Rt4Wz8'",
        "SET @password = N'Xk9mQ2vLp7Rt';",
        "password = E'Xk9mQ2vLp7Rt'",
        'std::string token("Xk9mQ2vLp7Rt4Wz8aBcD");',
        'QString password{"Xk9mQ2vLp7Rt"};',
        'String apiKey("Xk9mQ2vLp7Rt4Wz8");',
    ],
)
def test_sql_s_declared_variables_prefixed_strings_and_cpp_s_built_variables_are_read(text: str) -> None:
    assert find_secret(text) == "credential_assignment"
