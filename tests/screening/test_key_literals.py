"""Literals code hands to what signs, encrypts or logs in with them, and literals it only converts on
their way to a credential's name.

- A key given to the code that uses it: HMAC in Python, Node, Ruby, Go, PHP and Java, a JSON Web
  Token's secret after claims written in place, .NET's ``SymmetricSecurityKey``, cryptography's
  ``Fernet``, and the values AWS CDK and Pulumi mark as secrets given in plain text.
- A password given by position: the DB-API's ``connect("localhost", "app", "...")``, paramiko's
  ``connect(host, 22, "root", "...")``, ``FTP(host, user, "...")``, ldap3's ``Connection(server,
  dn, "...")``, Oracle's ``connect("scott", "...", dsn)``.
- A literal converted or wrapped before a credential's name holds it: ``Secret("...")``,
  ``str("...")``, ``bytes("...")``, ``new String("...")``, ``[]byte("...")``, ``Buffer.from("...")``,
  ``Encoding.UTF8.GetBytes("...")``.

The same calls given a variable, an empty string, a word or the secret's name are kept.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_sentences import mixed

SIGNING_KEYS = [
    'mac = hmac.new(b"{v}", msg, hashlib.sha256)', 'hmac.new(key=b"{v}", msg=body, digestmod="sha256")',
    'sig = hmac.digest(b"{v}", payload, "sha256")', "crypto.createHmac('sha256', '{v}').update(body).digest('hex')",
    'OpenSSL::HMAC.hexdigest("SHA256", "{v}", data)', 'mac := hmac.New(sha256.New, []byte("{v}"))',
    "$sig = hash_hmac('sha256', $payload, '{v}');", 'new SecretKeySpec("{v}".getBytes(StandardCharsets.UTF_8), "HmacSHA256")',
    'Key key = Keys.hmacShaKeyFor("{v}".getBytes());', '.signWith(SignatureAlgorithm.HS256, "{v}")',
    'var key = new SymmetricSecurityKey(Encoding.UTF8.GetBytes("{v}"));', 'f = Fernet(b"{v}")',
    'password: SecretValue.unsafePlainText("{v}"),', "masterUserPassword: cdk.SecretValue.plainText('{v}'),",
    'pulumi.export("db", pulumi.secret("{v}"))', 'password=Output.secret("{v}"),',
    # claims written in place before a token's secret
    'token = jwt.encode({{"sub": "42", "role": "admin"}}, "{v}", algorithm="HS256")',
    "const t = jwt.sign({{ id: user.id, email }}, '{v}', {{ expiresIn: '1h' }});",
    "JWT.encode({{ user_id: 1, exp: exp }}, '{v}', 'HS256')",
    # a cipher's key
    'cipher = AES.new(b"{v}", AES.MODE_GCM)', 'Crypto.Cipher.AES.new(b"{v}", AES.MODE_CBC, iv)', 'ChaCha20.new(key=b"{v}", nonce=n)',
    'Cipher(algorithms.AES(b"{v}"), modes.GCM(iv))', 'aead = AESGCM(b"{v}")', 'box = ChaCha20Poly1305(b"{v}")',
    "crypto.createCipheriv('aes-256-gcm', '{v}', iv)", 'crypto.createDecipheriv("aes-256-cbc", "{v}", iv)',
    'block, _ := aes.NewCipher([]byte("{v}"))', '$c = openssl_encrypt($data, "aes-256-cbc", "{v}", 0, $iv);',
]  # fmt: skip

POSITIONAL_LOGINS = [
    'db = MySQLdb.connect("localhost", "testuser", "{v}", "TESTDB")', 'conn = pymysql.connect("db.internal", "app", "{v}", "app")',
    'ssh.connect(hostname, 22, "root", "{v}")', 'client.connect("10.0.0.5", 22, user, "{v}")',
    'ftp = FTP("ftp.example.com", "bob", "{v}")', "ftps = FTP_TLS('files.example.com', 'deploy', '{v}')",
    'conn = ldap3.Connection(server, "cn=admin,dc=example,dc=org", "{v}", auto_bind=True)',
    'con = oracledb.connect("scott", "{v}", "localhost/orclpdb")', "con = cx_Oracle.connect('hr', '{v}', dsn)",
    # PHP's and Perl's, whose variables start with $, and after what names the database
    "$conn = mysqli_connect('localhost', 'app', '{v}', 'shop');", '$db = new mysqli($host, $user, "{v}", $name);',
    "$link = mysql_connect('db.internal', 'root', '{v}');", "$dbh = DBI->connect($dsn, $user, '{v}', {{RaiseError => 1}});",
    "$pdo = new PDO('mysql:host=db;dbname=shop', 'app', '{v}');", "$pdo = new PDO($dsn, $cfg->user, '{v}');",
    "const sequelize = new Sequelize('shop', 'app', '{v}', {{ host: 'db', dialect: 'mysql' }});",
]  # fmt: skip

WRAPPED = [
    'SECRET_KEY = Secret("{v}")', 'password = str("{v}")', 'API_KEY = bytes("{v}", "utf-8")',
    'self.token = bytearray(b"{v}")', 'String password = new String("{v}");', 'let api_key = String::from("{v}");',
    'const secret = Buffer.from("{v}");', 'var jwtKey = []byte("{v}")', 'byte[] secretKey = Encoding.UTF8.GetBytes("{v}");',
    'password = String.new("{v}")', '"client_secret": str("{v}"),',
    # Qt's and Windows' string macros, and C and C++'s wide and UTF-8 string prefixes
    'QString password = QStringLiteral("{v}");', 'LPCTSTR password = _T("{v}");', 'auto apiKey = TEXT("{v}");',
    'std::wstring password = L"{v}";', 'const char *password = u8"{v}";',
]  # fmt: skip


@given(form=st.sampled_from(SIGNING_KEYS + POSITIONAL_LOGINS + WRAPPED), value=mixed)
def test_a_literal_given_as_a_key_or_password_is_refused(form: str, value: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) in {"credential_assignment", "login_password"}, text


@pytest.mark.parametrize("form", SIGNING_KEYS + WRAPPED)
def test_each_key_and_wrapped_form_refuses_a_password(form: str) -> None:
    assert find_secret(form.format(v="Tr0ub4dor&3")) == "credential_assignment"


@pytest.mark.parametrize("form", POSITIONAL_LOGINS)
def test_a_password_given_by_position_is_refused_as_a_login(form: str) -> None:
    assert find_secret(form.format(v="Tr0ub4dor&3")) == "login_password"


@pytest.mark.parametrize(
    "text",
    [
        # a key that is code, empty, or made where it is used
        "mac = hmac.new(key, msg, hashlib.sha256)", 'mac = hmac.new(b"", msg, hashlib.sha256)',
        "cipher = AES.new(key, AES.MODE_GCM)", "AESGCM(AESGCM.generate_key(bit_length=128))", "crypto.createCipheriv(algo, key, iv)",
        'AES.new(b"", AES.MODE_ECB)', "aes.NewCipher(key)", '$c = openssl_encrypt($data, "aes-256-cbc", $key, 0, $iv);',
        'hmac.new(secret.encode(), msg, "sha256")', "crypto.createHmac('sha256', secret).update(body)",
        "crypto.createHmac('sha256', process.env.WEBHOOK_SECRET)", "f = Fernet(key)", "f = Fernet(Fernet.generate_key())",
        'OpenSSL::HMAC.hexdigest("SHA256", secret, data)', "hash_hmac('sha256', $payload, $secret)",
        "mac := hmac.New(sha256.New, key)", 'new SecretKeySpec(key.getBytes(), "HmacSHA256")',
        'new SymmetricSecurityKey(Encoding.UTF8.GetBytes(configuration["Jwt:Key"]))',
        "SecretValue.unsafePlainText(props.password)", 'pulumi.secret(config.require("dbPassword"))',
        'jwt.encode({"sub": "42", "role": "admin"}, SECRET, algorithm="HS256")', 'jwt.encode({"sub": "42"}, settings.SECRET_KEY)',
        'jwt.sign({ id: user.id }, "secret")',
        # a login whose password is code or empty, or anonymous FTP's address
        'conn = pymysql.connect("localhost", "root", password)', 'conn = pymysql.connect("localhost", "root", "")',
        'ftp = FTP("ftp.example.com", "anonymous", "guest@example.com")', "c = Connection(server, user, password)",
        'c = Connection(server, "cn=admin,dc=example,dc=org", "")', "ssh.connect(hostname, 22, username, password)",
        'client.connect("example.com", 22, "root", key_filename)', 'signal.connect(handler, "sender", "Clicked")',
        "$pdo = new PDO($dsn, $user, $pass);", "$pdo = new PDO($dsn, $user, getenv('DB_PASS'));", "mysqli_connect($host, $user, $password, $db)",
        "$m = new mysqli('localhost', 'app', '', 'shop');", "new Sequelize('sqlite::memory:')", "new Sequelize('shop', 'app', process.env.DB_PASS)",
        # a conversion of a literal that no credential's name holds, or of a variable
        'password = L"";', 'label = _T("Password2024!")', 'password = _T("")', 'caption = TEXT("Xk9vQ2mN5p")',
        'title = str("Hello World 2")', 'password_label = String("Password")', 'hash = hashlib.sha256(str("abc").encode())',
        'token_bytes = bytes(token, "utf-8")', 'var data = Encoding.UTF8.GetBytes("Hello, World 2")',
        "var keyBytes = Encoding.UTF8.GetBytes(secretKey)", 'password = str("")', 'api_key = bytes("changeme", "utf-8")',
        # a Pulumi or CDK resource whose name says what it holds
        'db_password = aws.secretsmanager.Secret("db-password")', 'db_password = Secret("db-password")',
        'api_token = Secret("prod-api-token")', "new secretsmanager.Secret(this, 'DbPassword')",
    ],
)  # fmt: skip
def test_the_same_calls_without_a_literal_secret_are_kept(text: str) -> None:
    assert find_secret(text) is None, text
