"""Passwords that tools take as arguments after their own words, and the stored secrets that command
lines set: ``net user NAME VALUE``, ``net use \\\\server\\share VALUE``, IRC's ``NickServ IDENTIFY VALUE``,
``openssl passwd VALUE``, ``rabbitmqctl add_user NAME VALUE``,
SQL's ``IDENTIFIED BY VALUE``, an Oracle logon's ``user/VALUE@database``, ``mc alias set ALIAS URL
KEY VALUE``, ``wpa_passphrase SSID VALUE``, ``gh secret set --body``, ``az keyvault secret set
--value``, ``aws secretsmanager ... --secret-string``, a SecureString's ``aws ssm put-parameter
--value``, ``aws configure set <credential> VALUE``, ``npm config set <credential> VALUE``, ``git
config <section>.<credential> VALUE``, ``lftp -u user,VALUE``, the short options of ``twine -p``,
``rabbitmqadmin -p``, ``ipmitool -P``, SNMPv3's ``-A`` and ``-X``, ``rdesktop -p``, rar's
``-pVALUE`` and ``-hpVALUE``, ``codecov -t``, ``netlify --auth``, ``ngrok config add-authtoken
VALUE``, ``snyk auth VALUE``, ``vault login VALUE``, ``cargo login VALUE``, ``nuget setapikey VALUE``, a
marketplace's ``vsce -p`` and ``--pat``, a package feed's ``dotnet nuget push -k`` and ``choco push -k``
or ``--key``, ``conan remote login ... -p``, ``netlify env:set <credential> VALUE``, the repository credentials
``poetry config``, ``composer config``, ``bundle config`` and ``rclone config create`` store, ``gh
variable set <credential> --body VALUE``, ``ansible-vault encrypt_string VALUE``,
MySQL's ``SET PASSWORD FOR account = 'VALUE'``, ``dotnet user-secrets set <credential> VALUE``,
macOS ``security add-generic-password -w``, PowerShell's ``ConvertTo-SecureString "..."
-AsPlainText``, a Wi-Fi QR code's ``P:`` field, a secret echoed or given as a here-string to a tool
that reads it from its input or into a process substitution given to an option that reads it from
a file (``--password-file <(echo VALUE)``), and what an expect or pexpect script sends to a password prompt.

Prose names these tools too (``the net user command``, ``identified by name``), so an unquoted
positional value must have a password's texture, and SQL's must be in a statement that makes or
changes an account; stand-ins, references, prompts (``*``) and other options are kept.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_clause_values import weak
from .test_lazy_rules import eager_kind
from .test_sentences import generated, mixed

POSITIONAL = [
    "net user {u} {v} /add",
    "NET USER {u} {v}",
    "net user {u} {v}",
    "net use \\\\fs01\\share {v} /user:CORP\\{u}", "NET USE Z: \\\\fs01\\share {v} /persistent:yes",
    "net use * \\\\10.0.0.5\\c$ /user:{u} {v}", "Net use Z: \\\\fs01\\share /u:{u} {v}",
    "/msg NickServ IDENTIFY {v}", "/msg NickServ IDENTIFY {u} {v}", "/ns identify {v}", "PRIVMSG NickServ :IDENTIFY {v}",
    "/msg NickServ REGISTER {v} {u}@example.com",
    "openssl passwd -6 {v}",
    "openssl passwd -salt xyz -1 {v}",
    "useradd -p $(openssl passwd -1 {v}) {u}",
    "rabbitmqctl add_user {u} {v}",
    "rabbitmqctl -n rabbit@host change_password {u} {v}",
    "ALTER USER {u} IDENTIFIED BY {v};",
    "alter user {u} identified by {v}",
    "CREATE ROLE {u} LOGIN IDENTIFIED BY {v}",
    "wpa_passphrase Office {v}",
    "rootpw {v}", "rootpw --plaintext {v}", "rootpw --allow-ssh --plaintext {v}",
    "wpa_passphrase 'Office Wifi' {v} > /etc/wpa.conf",
    "mc alias set local http://localhost:9000 {u} {v}",
    "mc config host add s3 https://s3.amazonaws.com {u} {v}",
    "sqlplus {u}/{v}@orcl",
    "sqlplus -S -L {u}/{v}@//db.internal:1521/ORCLPDB1 @run.sql",
    "expdp {u}/{v}@prod directory=dp dumpfile=full.dmp",
    # the old export and import, and a logon with a keyword's value after it and no database
    "expdp {u}/{v} directory=dp dumpfile=full.dmp", "imp {u}/{v} file=full.dmp full=y", "exp {u}/{v} file=x.dmp owner=hr",
    "sqlldr {u}/{v} control=load.ctl",
    # a proxy of proxychains' list with its user, and an IRC server's password after its port
    "socks5 127.0.0.1 1080 {u} {v}", "http 10.0.0.2 8080 {u} {v}", "socks4\tproxy.internal\t1080\t{u}\t{v}",
    "/connect irc.libera.chat 6697 {v}", "/connect -tls irc.libera.chat 6697 {v} {u}", "/server irc.oftc.net 6697 {v}",
    # Db2's logon
    "db2 connect to SAMPLE user {u} using {v}", "db2 CONNECT TO prod USER {u} USING {v}", "db2 attach to db2inst1 user {u} using {v}",
    "rman target {u}/{v}@prod",
    "rman target / catalog {u}/{v}@catdb",
    "CONNECT {u}/{v}@orcl",
    "sqlplus {u}/{v} as sysdba",
    "ngrok config add-authtoken {v}", "ngrok authtoken {v}", "snyk auth {v}",
    "vault login {v}", "vault login -no-print {v}",
    # a registry's token or a feed's API key that a package tool stores
    "cargo login {v}", "cargo login --registry internal {v}", "cargo login --registry=internal --quiet {v}",
    "cargo login -Z unstable-options {v}", "nuget setapikey {v} -Source https://api.nuget.org/v3/index.json",
    "nuget.exe SetApiKey {v}",
    # a secret echoed into a process substitution given to an option that reads one from a file
    "restic -r s3:s3.amazonaws.com/bucket --password-file <(echo {v}) backup /data",
    'ansible-playbook site.yml --vault-password-file=<(echo "{v}")', "gpg --batch --passphrase-file <(printf '%s' '{v}') -d x.gpg",
    "app --token-file <(echo -n {v})",
]
OPTIONS = [
    "gh secret set API_KEY --body {v}",
    "gh secret set API_KEY --repo acme/app -b {v}",
    "gh secret set API_KEY --body={v}",
    "az keyvault secret set --vault-name kv --name db --value {v}",
    "twine upload -u {u} -p {v} dist/*", "rabbitmqadmin -u {u} -p {v} list queues",
    "ipmitool -I lanplus -H 10.0.0.5 -U {u} -P {v} power status",
    "snmpwalk -v3 -u {u} -l authPriv -a SHA -A {v} 10.0.0.1",
    "snmpget -v3 -u {u} -l authPriv -x AES -X {v} 10.0.0.1 sysUpTime.0",
    # SNMPv1's and v2c's community, and Jenkins's CLI with a user's API token
    "snmpwalk -v2c -c {v} 10.0.0.1", "snmpget -v 2c -c '{v}' switch01 sysUpTime.0", "snmpbulkwalk -v2c -c {v} -Cr10 core1 ifTable",
    "java -jar jenkins-cli.jar -s http://ci:8080 -auth {u}:{v} who-am-i",
    # Windows: an option whose name ends in a credential's word, a command's /p after /u and
    # schtasks' /rp after /ru, winrs' -p: after -u:, a registry value named for a password,
    # PowerShell's secure string made from plain text either way round
    "pulumi config set --secret dbPassword {v}", "pulumi config set app:apiToken {v} --secret",
    "sqlpackage /Action:Publish /TargetUser:{u} /TargetPassword:{v}",
    "appcmd set apppool /apppool.name:App /processModel.userName:{u} /processModel.password:{v}",
    "schtasks /create /tn Backup /tr backup.bat /ru {u} /rp {v}", "schtasks /query /s srv01 /u {u} /p {v}",
    "winrs -r:host -u:{u} -p:{v} ipconfig", "reg add HKLM\\Software\\App /v Password /t REG_SZ /d {v}",
    "    DefaultPassword    REG_SZ    {v}", "Set-ADAccountPassword -Identity {u} -NewPassword (ConvertTo-SecureString -AsPlainText '{v}' -Force)",
    "lftp -u {u},{v} ftp.corp.example",
    "npm config set //registry.npmjs.org/:_authToken {v}",
    "yarn config set npmAuthToken {v}",
    "git config --global github.token {v}", "git config sendemail.smtpPass {v}",
    "aws secretsmanager put-secret-value --secret-id db --secret-string {v}",
    "aws secretsmanager create-secret --name db --description 'orders db' --secret-string={v}",
    "aws ssm put-parameter --name /db/pw --type SecureString --value {v}",
    "aws ssm put-parameter --name /db/pw --value {v} --type SecureString --overwrite",
    "aws configure set aws_secret_access_key {v}",
    "aws configure set profile.dev.aws_session_token {v}",
    "security add-generic-password -a {u} -s svc -w {v}",
    "security add-internet-password -a {u} -s example.com -w {v}",
    "security unlock-keychain -p {v} login.keychain", "security create-keychain -p {v} build.keychain",
    "security set-key-partition-list -S apple-tool:,apple: -s -k {v} build.keychain",
    "WIFI:T:WPA;S:Office;P:{v};;",
    "WIFI:S:Office;P:{v};T:WPA;H:false;;",
    "unrar x -p{v} backup.rar",
    "rar a -m5 -hp{v} out.rar docs/",
    "rdesktop -u {u} -p {v} 10.0.0.5",
    "psexec \\\\fs01 -u {u} -p {v} cmd", "PsExec64.exe \\\\fs01 -u {u} -p {v} -s cmd",
    'dotnet user-secrets set "Db:Password" {v}', "dotnet user-secrets --project src/Web set Stripe__SecretKey {v}",
    'dotnet user-secrets set --project src/Web "ConnectionStrings:{u}:ApiKey" "{v}"',
    "ansible-vault encrypt_string '{v}' --name 'db_password'", "ansible-vault encrypt_string --vault-id prod@prompt '{v}' --name db_password",
    "ansible-vault encrypt_string --ask-vault-pass '{v}'",
    "codecov -f coverage.xml -t {v}", "netlify deploy --prod --auth {v}", "netlify deploy --auth={v} --dir dist",
    # A marketplace's personal access token, a package feed's API key, a Conan remote's password.
    "vsce publish -p {v}", "vsce publish minor -p {v}", "ovsx publish -p {v}", "ovsx create-namespace acme -p {v}",
    "dotnet nuget push bin/App.1.0.0.nupkg -k {v} -s https://api.nuget.org/v3/index.json",
    "dotnet nuget delete App 1.0.0 -k {v} --non-interactive", "choco push app.1.0.nupkg -k {v}",
    "choco apikey -k {v} -s https://push.chocolatey.org/", "choco push app.1.0.nupkg --key {v}",
    "choco apikey --source https://push.chocolatey.org/ --key={v}",
    "conan remote login origin {u} -p {v}", "conan user -p {v} -r origin {u}",
    # A GitHub Actions variable given a credential's name (stored in the clear, but the value is one).
    "gh variable set DB_PASSWORD --body {v}", "gh variable set API_TOKEN -b {v} --repo acme/app",
    "gh variable set STRIPE_SECRET_KEY --env production --body={v}",
    # -p right after a user's option on a tool the screen does not know; Windows options that name a password.
    "influx setup -u {u} -p {v} -o org -b bucket -f", "mytool --user {u} -p '{v}'", "mytool -U {u} -P {v} -d app",
    "cmdkey /add:fileserver /user:{u} /pass:{v}", "winrs -r:host -u:{u} /password:{v} cmd", "tool /PASSWORD:{v}",
    # The option a sentence lists after another, given a value all the same.
    "run it with --verbose and --password {v}", "pass --user and --token {v}", "use --user or --password '{v}' together",
    # A repository's credential that a package manager stores, a hosted site's secret variable.
    "netlify env:set DB_PASSWORD {v}", "netlify env:set STRIPE_SECRET_KEY {v} --context production",
    "poetry config pypi-token.pypi {v}", "poetry config http-basic.private {u} {v}",
    "composer config --global github-oauth.github.com {v}", "composer config -a gitlab-token.gitlab.example.com {v}",
    "composer config --auth http-basic.repo.example.com {u} {v}", "composer config bearer.repo.example.com {v}",
    "bundle config set --global rubygems.pkg.github.com {u}:{v}", "bundle config gems.example.com {u}:{v}",
    "rclone config create backup s3 provider AWS access_key_id AKIA0000FAKE secret_access_key {v}",
    "rclone config create nas sftp host nas.local user {u} pass {v}",
    *(ARGUMENT_LISTS := [
        # An option and its value as the items of an argument list (JSON's, Python's, a
        # Dockerfile's exec form) or of YAML's block list, quoted or not.
        '"args": ["--password", "{v}"]', "subprocess.run(['mysql', '-u', '{u}', '--password', '{v}'])",
        'CMD ["redis-server", "--requirepass", "{v}"]', 'command: ["redis-server", "--appendonly", "yes", "--requirepass", "{v}"]',
        "args:\n  - --token\n  - {v}", "        - '--password'\n        - '{v}'", 'args:\n  - "--api-key"\n  - "{v}"',
    ]),
]
QUOTED = [
    "$pw = ConvertTo-SecureString \"{v}\" -AsPlainText -Force",
    "ConvertTo-SecureString -String '{v}' -AsPlainText -Force",
    "CREATE USER '{u}'@'%' IDENTIFIED BY '{v}';",
    "CREATE USER '{u}'@'%' IDENTIFIED WITH caching_sha2_password BY '{v}';",
    "GRANT ALL ON app.* TO '{u}'@'%' IDENTIFIED BY '{v}';",
    "net user {u} \"{v}\" /add",
    "gh secret set API_KEY --body \"{v}\"",
    "SET PASSWORD FOR '{u}'@'localhost' = '{v}';",
    "set password for {u}@localhost = \"{v}\"",
    "SET PASSWORD FOR {u} = PASSWORD('{v}');",
    "SET PASSWORD = PASSWORD('{v}');",
]
users = st.sampled_from(["admin", "bob", "app", "svc_deploy"])


@given(form=st.sampled_from(POSITIONAL), user=users, value=st.one_of(mixed, weak))
def test_a_password_with_a_password_s_texture_given_to_a_tool_is_refused(form: str, user: str, value: str) -> None:
    if "{u}/{v}" in form:
        assume("@" not in value)  # an Oracle logon's password ends at its first "@" unless quoted
    text = form.format(u=user, v=value)
    assert find_secret(text) == "command_line_credential", text


@pytest.mark.parametrize("form", POSITIONAL + OPTIONS + QUOTED)
def test_each_form_refuses_a_generated_password(form: str) -> None:
    """Each form once with the same value: the property tests above draw forms at random, and may
    pass over one."""
    text = form.format(u="app", v="Xk9mQ2vLp7Zr")
    assert find_secret(text) in ("command_line_credential", "credential_assignment"), text


@given(form=st.sampled_from(OPTIONS + QUOTED), user=users, value=st.one_of(mixed, weak))
def test_a_secret_an_option_or_a_quoted_argument_sets_is_refused(form: str, user: str, value: str) -> None:
    text = form.format(u=user, v=value)
    assert find_secret(text) in ("command_line_credential", "credential_assignment"), text


# A password or a secret given on the input of a tool that reads one there: echoed into it, or as a
# here-string. base64 encodes anything, so only a pair's password with a password's texture counts.
ON_INPUT = [
    "echo '{v}' | docker secret create db_pw -", "printf '{v}' | gcloud secrets create db-pw --data-file=-",
    'echo -n "{v}" | gcloud secrets versions add db-pw --data-file=-', "echo '{v}' | wrangler secret put API_KEY",
    "echo '{v}' | gh secret set API_KEY --repo acme/app", "wrangler secret put API_KEY <<< '{v}'",
    "echo -n '{v}' | vercel env add STRIPE_SECRET_KEY production", "vercel env add DATABASE_PASSWORD preview <<< '{v}'",
    'gcloud secrets versions add db-pw --data-file=- <<< "{v}"', "docker login -u {u} --password-stdin ghcr.io <<< '{v}'",
    "chpasswd <<< '{u}:{v}'", "sudo -S apt-get update <<< {v}",
    # tools that read a password or passphrase from their input: always, or when told to
    'echo -e "{v}\\n{v}" | passwd {u}', "sudo passwd {u} <<< '{v}'", "printf '{v}\\n{v}\\n' | smbpasswd -s -a {u}",
    "echo '{v}' | vncpasswd -f > ~/.vnc/passwd", "echo '{v}' | htpasswd -i -c .htpasswd {u}",
    "echo '{v}' | openssl passwd -6 -stdin", "echo '{v}' | mkpasswd -m sha-512 -s", "echo '{v}' | kinit {u}@CORP.EXAMPLE",
    "echo -n '{v}' | cryptsetup luksOpen /dev/sdb1 data", "echo '{v}' | gpg --batch --passphrase-fd 0 -d notes.gpg",
    "echo '{v}' | pass insert -e db/prod", "echo '{v}' | gopass insert -f prod/db", "echo '{v}' | keepassxc-cli ls vault.kdbx",
    # an option that reads a password or a passphrase from a file, given the input's; OpenSSL's -passin stdin
    "echo '{v}' | restic -r /srv/repo --password-file /dev/stdin snapshots",
    "echo '{v}' | ansible-playbook site.yml --vault-password-file=/dev/stdin",
    "printf '%s' '{v}' | step ca certificate host host.crt host.key --password-file /dev/stdin",
    "gpg --batch --passphrase-file /dev/fd/0 -d notes.gpg <<< '{v}'", "openssl rsa -in k.pem -passin stdin <<< '{v}'",
    "echo '{v}' | openssl pkcs12 -export -in c.crt -inkey k.key -passout stdin -out c.p12",
    # tools that store what they read as a secret, or are told to read it there
    "echo '{v}' | firebase functions:secrets:set API_KEY", "echo -n '{v}' | systemd-creds encrypt - db.cred",
    "echo -n '{v}' | secret-tool store --label='db' service db user {u}", "secret-tool store --label=db service db <<< '{v}'",
    "echo -n '{v}' | keyctl padd user db @u", "echo -n '{v}' | ansible-vault encrypt_string --stdin-name db_password",
    "echo '{v}' | doppler secrets set DB_PASSWORD",
    "echo -n '{v}' | kubectl create secret generic db --from-file=password=/dev/stdin",
    "echo '{v}' | vault kv put secret/db password=-", "echo '{v}' | vault write auth/userpass/users/{u} password=-",
    # printf with a format that prints its argument alone
    "printf '%s' '{v}' | kinit {u}@CORP.EXAMPLE", 'printf "%s\\n" "{v}" | docker login -u {u} --password-stdin',
    # a here-document's first line, the reader before it or after it on the opening line
    "docker login -u {u} --password-stdin <<EOF\n{v}\nEOF", "kinit {u}@CORP.EXAMPLE <<'END'\n{v}\nEND", "chpasswd <<EOF\n{u}:{v}\nEOF",
    "sudo passwd {u} <<-EOF\n\t{v}\n\t{v}\n\tEOF", "cat <<EOF | docker login -u {u} --password-stdin ghcr.io\n{v}\nEOF",
]  # fmt: skip


@pytest.mark.parametrize("form", [form for form in ON_INPUT if "<<" in form])
def test_each_form_on_a_tool_s_input_refuses_a_password(form: str) -> None:
    """Each here-string and here-document form once: the property test draws forms at random."""
    text = form.format(u="app", v="Xk9mQ2vLp7Zr")
    assert find_secret(text) == "command_line_credential", text


# A password echoed into a file named for a credential (its folder, leading dots and extension aside).
INTO_FILES = [
    "echo '{v}' > ~/.vault-pass", "printf '%s' '{v}' > secrets/db_password.txt", 'echo -n "{v}" >> token',
    "echo '{v}' > /etc/app/db.password", "echo {v} > ~/.config/app/api_key",
]  # fmt: skip
BASIC_PAIRS = ["echo -n '{u}:{v}' | base64", "printf '{u}:{v}' | base64 -w0", "base64 <<< '{u}:{v}'"]


@given(form=st.sampled_from(ON_INPUT), user=users, value=st.one_of(mixed, weak))
def test_a_secret_given_on_the_input_of_a_tool_that_reads_one_is_refused(form: str, user: str, value: str) -> None:
    text = form.format(u=user, v=value)
    assert find_secret(text) == "command_line_credential", text


@given(form=st.sampled_from(INTO_FILES), value=st.one_of(mixed, weak).filter(lambda v: not set(v) & set("'\"<>|;&$` ")))
def test_a_password_echoed_into_a_file_named_for_a_credential_is_refused(form: str, value: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) == "command_line_credential", text


@given(form=st.sampled_from(BASIC_PAIRS), user=users, value=mixed)
def test_a_password_encoded_for_a_basic_authorization_header_is_refused(form: str, user: str, value: str) -> None:
    text = form.format(u=user, v=value)
    assert find_secret(text) == "command_line_credential", text


@pytest.mark.parametrize(
    "text",
    [
        # What base64 encodes but a password, and what other tools read.
        "echo hello | base64", "echo -n 'key:value' | base64", "echo -n 'user:password' | base64",
        "echo -n 'ann:hunter' | base64", "base64 <<< 'just some text'", "grep -c x <<< 'Xk9mQ2vLp'",
        "echo -n 'admin' | base64", "echo -n \"Hello World 2024!\" | base64", "echo 'SGVsbG8gV29ybGQ=' | base64 -d",
        'echo "Xk9mQ2vLp7" | base64 --decode', "echo -n \"$USER:$PASS\" | base64", "echo done; base64 Xk9mQ2vLp7.bin",
        "echo 'Xk9mQ2vLp' | tee out.txt", "echo 'https://api.example.com' | vercel env add API_URL production",
        # Variables and files on the input, and the tools without it.
        "echo $API_KEY | wrangler secret put API_KEY", "cat key.txt | gh secret set API_KEY",
        # a setting's name, or one the browser is given, for vercel
        "echo 'Xk9mQ2vLp' | vercel env add REGION production", "echo 'pk_live_Xk9mQ2vLp' | vercel env add NEXT_PUBLIC_STRIPE_KEY production",
        "docker login -u ann --password-stdin <<< \"$TOKEN\"", "echo 'done' | gh secret list",
        "wrangler secret put API_KEY", "gcloud secrets create db-pw --replication-policy=automatic",
        "echo $DB_PW | vault kv put secret/db password=-", "echo hello | vault kv get secret/db", "cat pw | systemd-creds encrypt - db.cred",
        # echoed into a file no credential names, or no value of its own with a password's texture
        "echo $DB_PW > ~/.vault-pass", "echo 'Xk9mQ2vLp7' > notes.txt", 'echo "done" > password_reset.log', 'echo "${TOKEN}" > token',
        "echo > password.txt", "echo reset > passwords.md", "echo 1 > /proc/sys/net/ipv4/ip_forward",
    ],
)  # fmt: skip
def test_other_input_and_other_tools_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        # Prose that names the tools.
        "the net user command lists accounts",
        "Net user growth was 12% in Q3",
        "openssl passwd generates hashes",
        "users identified by email2 addresses",
        "the user is identified by name.",
        "Users are identified by sha256 digests.",
        "the WIFI: P: field holds the key",
        # Prompts, options and no value.
        "net user admin /delete",
        "net user admin *",
        '"args": ["--password-file", "/run/secrets/pw"]', '"args": ["--password", "$(DB_PASSWORD)"]', '["--token", token]',
        '"args": ["--password", ""]', "args:\n  - --password\n  - --verbose", 'CMD ["redis-server", "--requirepass", "$REDIS_PASSWORD"]',
        '"args": ["--pass", "through"]', '"args": ["--token", "<YOUR_TOKEN>"]', '"args": ["--api-key", "YOUR_API_KEY"]',
        "net use Z: \\\\fs01\\share /user:CORP\\admin *", "net use Z: \\\\fs01\\share /persistent:yes", "net use Z: /delete",
        "net use Z: \\\\fs01\\share /user:admin /persistent:no", "net use \\\\fs01\\share %SHARE_PW% /user:admin",
        "Run net use to list the mapped drives",
        "/msg NickServ IDENTIFY <password>", "use /msg NickServ IDENTIFY with your password", "/msg NickServ HELP IDENTIFY",
        "NickServ identify then join",
        "openssl passwd -stdin < pw.txt",
        "openssl passwd -6 -stdin",
        "rabbitmqctl add_user admin",
        "gh secret set API_KEY < key.txt",
        "az keyvault secret set --vault-name v --name db --file secret.txt",
        "aws configure set region us-east-1",
        "aws secretsmanager create-secret --name db --secret-string file://secret.json",
        "npm config set registry https://registry.npmjs.org/", "npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}",
        "git config --global user.signingkey 3AA5C34371567BD2", "git config --global user.name Ann-Lee2",
        "git config credential.helper store", "git config --global github.token $GITHUB_TOKEN",
        "mc alias set local http://localhost:9000 minioadmin minioadmin", "lftp -u ann, ftp.corp.example",
        "lftp -u ann ftp.corp.example", "wpa_passphrase Office < pw.txt", "ipmitool -I lanplus -U admin -E power status",
        "snmpwalk -v2c -c public 10.0.0.1", "grep -A 3 foo notes.txt", "tar -X exclude.txt -cf a.tar .", "ps -A",
        'aws secretsmanager put-secret-value --secret-id db --secret-string "$(cat pw.txt)"',
        "aws ssm put-parameter --name /app/region --type String --value eu-west-1",
        "aws ssm put-parameter --name /app/url --value https://api.example.com --overwrite",
        "aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE",
        "security find-generic-password -s svc -w",
        "security add-generic-password -a bob -s svc -w",
        'security unlock-keychain -p "$KEYCHAIN_PASSWORD" build.keychain', "security unlock-keychain login.keychain",
        "security delete-keychain -p build.keychain",
        "WIFI:T:nopass;S:Guest;;",
        # SQL that gives a hash or asks for a password to be made.
        "CREATE USER app IDENTIFIED BY RANDOM PASSWORD;",
        "CREATE USER app IDENTIFIED BY VALUES 'S:8F2D65FB5547B71C8DA3760F10960428CD307B1C6271691FC55C1F56554A';",
        # References and stand-ins.
        "CREATE USER app IDENTIFIED BY :pw;",
        "CREATE USER app IDENTIFIED BY '${DB_PASSWORD}';",
        'net user admin "$env:ADMIN_PASSWORD" /add',
        'openssl passwd -6 "$PASSWORD"',
        'rabbitmqctl add_user "$USER" "$PASS"',
        'gh secret set API_KEY --body "$API_KEY"',
        'gh secret set API_KEY -b"${{ secrets.X }}"',
        'az keyvault secret set --vault-name v --name db --value "$(cat pw)"',
        "WIFI:T:WPA;S:Cafe;P:<password>;;",
        # An Oracle logon with the demo's password, a reference, no password, or no database or
        # role after it, where a path or prose has the same shape.
        "sqlplus scott/tiger@orcl", "sqlplus app/$ORACLE_PASSWORD@orcl", 'sqlplus "app/${PW}"@orcl',
        "sqlplus /nolog", "sqlplus / as sysdba", "sqlplus user/password@db", "sqlplus scripts/Setup_v2.sql",
        "sqlplus @scripts/Setup_v2.sql", "CONNECT Client/Server2 model", "CONNECT HTTP/2 servers",
        # Without -AsPlainText the string is encrypted, not a password in the clear.
        '$s = ConvertTo-SecureString "01000000d08c9ddf0115d1118c7a00c04fc297eb" -Key $key',
        "$s = ConvertTo-SecureString $encrypted",
        # Archives, remote desktops and SQL that prompt, name a variable or give a hash.
        "rar a -p out.rar docs/", "rar a -hp out.rar docs/", "unrar x -p- backup.rar", "ls -hp", "tar -hp -cf a.tar .",
        "rdesktop -u admin -p - 10.0.0.5", "SET PASSWORD FOR root = PASSWORD(@pw);",
        "SET PASSWORD FOR 'app'@'localhost' = @new_password;",
        "SET PASSWORD FOR 'app'@'localhost' = '*6BB4837EB74329105EE4568DDA7DC67ED2CA2AD9';",
        "run SET PASSWORD FOR the user = a new value.",
        # .NET's user secrets that are settings, a variable, or read from a file.
        'dotnet user-secrets set "Db:Host" db.internal', 'dotnet user-secrets set "Db:Password" "$DB_PASSWORD"',
        "dotnet user-secrets list --project src/Web", "dotnet user-secrets set Db:Password < pw.txt",
        # The readers' names as a file's, a command with nothing on its input, a variable on it.
        "echo hi | grep root /etc/passwd", "cat /etc/passwd | grep ann", "echo $PW | kinit ann", "kinit ann@CORP.EXAMPLE",
        "pass insert db/prod", "echo 'done' | pass ls",
        # Token commands with no token, or a variable; other tools' -t.
        "snyk auth", "snyk test --all-projects", "ngrok config add-authtoken $NGROK_AUTHTOKEN", "codecov -t ${CODECOV_TOKEN}",
        "vault login", "vault login -method=github", "vault login -method=userpass username=ann", "run vault login first, then deploy",
        # a variable echoed, or an option that reads no secret
        "restic --password-file <(echo $RESTIC_PASSWORD)", "diff <(echo Xk9qrvPq72mZb4) <(echo b)", "cmd --input-file <(echo Xk9qrvPq72mZb4)",
        "netlify deploy --auth $NETLIFY_AUTH_TOKEN --prod", "docker run -t ubuntu", "ssh -t host top",
        # Package managers' and hosts' settings that are no credential, or a variable, or none given.
        "rabbitmqadmin -u admin -p $RABBIT_PW list queues", "rabbitmqadmin -H host -P 15672 list queues",
        "netlify env:set NODE_VERSION 20.11.1", "netlify env:set API_TOKEN $API_TOKEN", "netlify env:set API_TOKEN",
        "poetry config virtualenvs.in-project true", "poetry config pypi-token.pypi $PYPI_TOKEN", "poetry config http-basic.foo bob",
        'poetry config http-basic.foo bob "${FOO_PASSWORD}"', "composer config --global github-oauth.github.com",
        'composer config --global github-oauth.github.com "$GITHUB_TOKEN"', "composer config repositories.foo vcs https://github.com/acme/foo",
        "bundle config set --local path vendor/bundle", "bundle config set --global rubygems.pkg.github.com bob:$GITHUB_TOKEN",
        "bundle config mirror.https://rubygems.org https://mirror.example.com",
        "rclone config create remote s3 provider AWS env_auth true region eu-west-1",
        "rclone config create remote s3 secret_access_key $AWS_SECRET", "rclone config update remote token",
        "netlify deploy --auth is deprecated in favour of NETLIFY_AUTH_TOKEN", "codecov -t is optional for public repos",
        # Package tools' logins that prompt or read a variable, their other options, and other tools' -k.
        "cargo login", "cargo login --registry my-registry", "run cargo login first, then cargo publish",
        "cargo login --registry internal $CARGO_TOKEN", "nuget setapikey %NUGET_KEY% -Source nuget.org",
        "nuget setapikey $env:NUGET_KEY", "vsce publish -p $VSCE_PAT", "vsce publish patch", "vsce package -o out.vsix",
        "ovsx publish -p ${{ secrets.OVSX_PAT }}", "dotnet nuget push *.nupkg -k $NUGET_API_KEY -s https://api.nuget.org/v3/index.json",
        "dotnet nuget push pkg.nupkg --skip-duplicate -k ${{ secrets.NUGET }}", "choco push app.nupkg --key $env:CHOCO_KEY",
        "choco push --key is required for the community feed", "conan remote login origin admin -p",
        "conan user -p $CONAN_PASSWORD -r origin admin", "conan install . -pr default", "curl -k https://self-signed.example",
        "dotnet nuget list source", "choco install git -y",
        # LastPass's --password names the field lpass show prints.
        "lpass show --password github", "lpass show --sync=now --password work/db",
        # Stores and readers with a variable or a file on their input, other subcommands, variables that are settings.
        'echo "$PW" | secret-tool store --label=db service db', "secret-tool lookup service db", "gopass insert prod/db",
        "cat secrets | gopass insert", "echo 'Gp9xLq2Rv' | gopass show prod/db", "echo $DB_PW | ansible-vault encrypt_string --stdin-name db_pw",
        'ansible-vault encrypt_string "$DB_PASSWORD" --name db_password', "ansible-vault encrypt_string --name db_password",
        "ansible-vault encrypt_string --help", "keepassxc-cli ls db.kdbx", "echo $KP | keepassxc-cli ls db.kdbx",
        "openssl rsa -passin file:pw.txt -in k.pem", "the -passin stdin option reads it", "echo $RESTIC_PW | restic --password-file /dev/stdin",
        "restic --password-file /dev/stdin < pw.txt", "gh variable set REGION --body eu-west-1", "gh variable set NODE_VERSION -b 20.11.1",
        "gh variable set DB_PASSWORD_MIN_LENGTH --body 12", 'gh variable set DB_PASSWORD --body "$DB_PASSWORD"',
        # A tool's password option named in a sentence, and printf's format given a variable.
        "docker login -p is deprecated, use --password-stdin", "sshpass -p in scripts leaks the password to ps",
        "psexec -p takes the password in the clear", "mysql -u root -p and then type it",
        # -p after a user's option as a port, a mapping, a file, a URL or a variable; a user that is a number.
        "docker run -u app -p 8080:80 nginx", "docker run -u 1000 -p 8080:80 nginx", "docker run --user app -p 127.0.0.1:5432:5432 postgres",
        "psql -U app -p 5433 orders", "mytool -u admin -p ./profile.json", "mytool -u admin -p $ADMIN_PW", "mytool -u admin -p prod",
        "curl -u admin:x -p https://example.com", "ncu -u -p npm", "cmdkey /add:fileserver /user:deploy /pass", "robocopy C:\\src D:\\dst /pass:2",
        # -a user:... is httpie's only on an http or https command line; a user alone makes it prompt.
        "wget http://example.com/a -a user:log2.txt", "tool -a deploy:Xk9mQ2vLp7", "http -a deploy example.org",
        "http -a deploy:deploy example.org", "https -a user:${PW} example.org", "wget http://x/ -a wget:log.txt",
        # Long options a sentence lists, joined by a word.
        "pass --password or --token, not both", "mysql accepts --password and --user", "give --password with --user",
        "--token and --user go together", "set --secret then --region",
        # The option a sentence lists after another, and a word of the sentence after it.
        "Use --password and --token together", "Use `--password` and `--token` together",
        "Use --password, or --token instead", "pass --user with --password only", "Use --user and --password, never both",
        # A sentence about the option: what it calls the option, or a word of grammar after it.
        "use the --password flag", "the new --password options.", "mysql needs the --password option", "the --token parameter",
        "Certtool now accepts --password for --key-info", "if --password was given", "the --api-key argument is required",
        "--secret values are masked", "ignore --password when --token is set", "pass --password only in CI",
        # a manual's synopsis: what the option takes, named; a contraction after the option
        "--change-passphrase user-id", "gpg --passwd user_id", "--try-secret-key name", "[-keypass old_key]",
        "If -srckeypass isn't provided, keytool asks", "--private-key=file", "blkid --match-token NAME=value", "--match-token LABEL=label.",
        # an option quoted whole with an empty user and password (curl's Negotiate)
        "Sending a '-u :' is enough as the user name and password", "use '-u ann:' and curl prompts",
        # Kickstart's rootpw locked, read from a variable, or named.
        "rootpw --lock", "rootpw --iscrypted", "rootpw ${ROOT_PW}", "the rootpw option sets the root password",
        "printf '%s' \"$PW\" | kinit ann", "printf '%s\\n' \"${REGISTRY_TOKEN}\" | docker login -u ann --password-stdin",
        # Windows options that hold no password: a page's switch, a build's property, a registry
        # value of another name or from a variable, a user's name
        "dir /p", "more /p file.txt", "robocopy a b /p Xk9mQ2vLp7Zr", "msbuild /p:Configuration=Release2", "dotnet build -p:Version=1.2.3",
        "reg add HKCU\\Software\\App /v Theme /t REG_SZ /d Dark2x", "reg add HKLM\\Software\\App /v Password /t REG_SZ /d %PW%",
        "    DefaultUserName    REG_SZ    ann", "ConvertTo-SecureString -AsPlainText $pw -Force", "see https://x.example.com/password:Xk9mQ2vLp7",
        "-secret: db-credentials\n+secret: app-credentials", "cat <<EOF > notes.txt\nXk9mQ2vLp7\nEOF",
        "docker login --password-stdin <<'END'\n$TOKEN\nEND", "chpasswd <<EOF\nEOF", "pulumi config set aws:region us-east-2", "pulumi config set --secret dbPassword",
        # SNMP's default communities and a variable; Jenkins's CLI reading its credential from a file
        "snmpwalk -v2c -c public 10.0.0.1", "snmpget -v 2c -c private switch01 sysUpTime.0", "snmpwalk -v2c -c $COMMUNITY core1",
        "snmpwalk -c is the community option", "java -jar jenkins-cli.jar -auth @/run/secrets/jenkins who-am-i",
        # a Db2 logon from a variable; an Oracle tool given a script and its arguments, or a path alone
        "db2 connect to SAMPLE user ann using $DB2_PASSWORD", "sqlplus scripts/Setup_v2.sql mode=full", "expdp reports/Q3_2024",
        # a proxy without a user's password, an IRC server without one, a URL's path
        "socks4 proxy.local 1080 ann", "socks5 127.0.0.1 1080", "/server add libera irc.libera.chat 6697", "/connect irc.libera.chat 6697",
        "see https://example.com/connect 443 Xk9mQ2vLp7Zr", "http localhost 8000 to check the app2 server",
        'echo "done" | passwd --help', "echo hi | passwd -S ann",
    ],
)
def test_prose_stand_ins_prompts_and_other_options_are_kept(text: str) -> None:
    assert find_secret(text) is None


# A personal access token's --pat: "pat" abbreviates a pattern too, so only a generated value counts.
PAT_OPTIONS = ["vsce publish --pat {v}", "vsce login acme --pat {v}", "vsce publish --pat={v}", "ovsx publish --pat '{v}'"]


# Azure DevOps' tokens: 52 characters of lower-case base32, or 84 letters and digits. A draw of
# few distinct characters (2222…aaaa) is a placeholder's run, kept by design, and no token.
pats = st.one_of(
    st.text("abcdefghijklmnopqrstuvwxyz234567", min_size=52, max_size=52),
    st.text(string.ascii_letters + string.digits, min_size=84, max_size=84),
).filter(lambda v: sum(c.isdigit() for c in v) >= 4 and sum(c.isalpha() for c in v) >= 8 and len(set(v)) >= 12)


@given(form=st.sampled_from(PAT_OPTIONS), value=pats)
def test_a_generated_personal_access_token_after_pat_is_refused(form: str, value: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) in ("command_line_credential", "credential_assignment"), text


@pytest.mark.parametrize(
    "text", ["tool --pat hello2", "grep-like --pat TODO", "vsce publish --pat $VSCE_PAT", "git log --pat", "scan --pat src/*.py --json"]
)
def test_a_pattern_or_a_variable_after_pat_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A script that answers a password prompt: Tcl expect's send and pexpect's send or sendline, the
# first after an expect whose quoted prompt asks for a password, passphrase or passcode.
PROMPTED = [
    'expect "assword:"\nsend "{v}\\r"', 'expect "Password:" {{ send "{v}\\r" }}', 'expect {{\n  "password:" {{ send "{v}\\r" }}\n}}',
    'expect -exact "Password: "\nsend -- "{v}\\r"', 'expect -re "(P|p)assword: " {{ send "{v}\\r" }}',
    'expect "Enter passphrase"\nexp_send "{v}\\r"', 'expect "login:"\nsend "{u}\\r"\nexpect "Password:"\nsend "{v}\\r"',
    "child = pexpect.spawn('ssh {u}@host')\nchild.expect('Password:')\nchild.sendline('{v}')",
    "child.expect(['[Pp]assword:', pexpect.EOF])\nchild.sendline(\"{v}\")", "p.expect(r'Enter passcode')\np.send('{v}\\n')",
]  # fmt: skip


@given(form=st.sampled_from(PROMPTED), user=users, value=st.one_of(mixed, weak))
def test_a_password_a_script_sends_to_a_password_prompt_is_refused(form: str, user: str, value: str) -> None:
    text = form.format(u=user, v=value)
    assert find_secret(text) == "command_line_credential", text


@pytest.mark.parametrize(
    "text",
    [
        # Variables, commands and code that give the password, and nothing at all.
        'expect "assword:"\nsend "$password\\r"', 'expect "Password:" {{ send "$::env(SSH_PW)\\r" }}',
        'expect "assword:"\nsend "[lindex $argv 0]\\r"', "child.expect('Password:')\nchild.sendline(password)",
        "child.expect('Password:')\nchild.sendline(f\"{{pw}}\")", "child.expect('Password:')\nchild.sendline('%s' % pw)",
        'expect "Password:"\nsend "\\r"',
        # Answers to other prompts, a later send, and a send with no expect before it.
        'expect "(yes/no)"\nsend "yes\\r"', 'expect "login:"\nsend "admin\\r"',
        'expect "Password:"\nsend "$pw\\r"\nexpect "$ "\nsend "uptime\\r"', 'send "hello world\\r"',
        'the expect command waits for password prompts; then send "hello\\r"',
        # A quoted prompt named in prose.
        'the "Password:" prompt times out', 'send the password reset email after the expect "Password:" prompt times out',
        # Tcl names a global variable with "::" before it.
        "set passwd $::env(SSH_EXPECT_PW)", "set password $env(SSH_PW)",
    ],
)  # fmt: skip
def test_other_sends_and_the_variables_scripts_send_are_kept(text: str) -> None:
    assert find_secret(text.replace("{{", "{").replace("}}", "}")) is None, text


@pytest.mark.parametrize("env", ["$env:DB_PASSWORD", "$Env:PW", "$ENV:API_TOKEN"])
@pytest.mark.parametrize("form", ['$password = "{e}"', "password = '{e}'", 'token: "{e}"'])
def test_powershell_s_environment_variable_in_quotes_is_a_reference(form: str, env: str) -> None:
    """PowerShell fills ``"$env:NAME"`` in from the environment: the value is named, not given."""
    assert find_secret(form.format(e=env)) is None


# The tools before an option are found once per screen; what one screen found never decides another's.
def test_a_tool_found_in_one_content_is_not_looked_up_in_the_next() -> None:
    assert find_secret("sshpass -p $SSHPASS ssh deploy@host") is None
    assert find_secret("echo -p hunter22x and more") is None  # -p after where sshpass stood: no tool here
    assert find_secret("sshpass -p hunter22x ssh deploy@host") == "command_line_credential"


TOOLS = [
    "sshpass", "docker login", "mysql", "redis-cli", "ldapsearch", "zip", "ssh-keygen", "openssl enc", "rar", "rdesktop", "codecov",
    "ls", "grep",
]  # fmt: skip
OPTION_WORDS = ["-p", "-a", "-w", "-P", "-N", "-k", "-U", "-hp", "-t", "-r", "-x"]


@given(
    st.lists(
        st.sampled_from(TOOLS) | st.sampled_from(OPTION_WORDS) | st.sampled_from(["hunter22x", "$PW", "db", "'Xk9!mQ2v'", "a%Tr0ub4dor3"]),
        min_size=1,
        max_size=14,
    ).map(" ".join),
    st.sampled_from([" ", "\n", " && "]),
)
def test_options_after_tools_get_the_same_verdict_as_a_screen_that_runs_every_rule(line: str, joint: str) -> None:
    text = joint.join([line, line[::-1]])
    assert find_secret(text) == eager_kind(text), text


@given(value=generated, echo=st.sampled_from(["echo -n '{v}'", 'echo "{v}"', "printf '%s' '{v}'"]),
       options=st.sampled_from(["", " -w0", " -w 0", " | tr -d '\\n'"]))  # fmt: skip
def test_a_generated_value_piped_into_base64_to_encode_is_refused(value: str, echo: str, options: str) -> None:
    # echo -n '...' | base64: a Kubernetes Secret's data or a header made from the secret itself
    text = echo.format(v=value) + " | base64" + options
    assert find_secret(text) == "command_line_credential", text
    if not set(value) & set("&;|<>!$`'\"()"):  # unquoted, as a shell takes it only without its metacharacters
        assert find_secret(f"echo -n {value} | base64{options}") == "command_line_credential", value
