""""Password", and an API key, an access token or a secret key, written in other scripts, and in
other languages' words of more than one, before a colon or "=": the value is judged as after
``password:``."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret
from tact_memory.screening.vocabulary import OTHER_KEY_WORDS, OTHER_PASSWORD_WORDS

from .test_sentences import mixed

WORDS = [word.decode() for word in OTHER_PASSWORD_WORDS + OTHER_KEY_WORDS]
SEPARATORS = [": ", ":", " : ", "\u00a0: ", "\uff1a", "\uff1a ", "\uff1d", "=", " = "]


def test_every_word_is_as_the_screen_reads_it() -> None:
    # The screen reads NFKC text: a word that NFKC changes would never be found.
    assert all(unicodedata.normalize("NFKC", word) == word for word in WORDS)


@given(word=st.sampled_from(WORDS), separator=st.sampled_from(SEPARATORS), value=mixed, after=st.sampled_from(["", "\n", " (prod)"]))
def test_a_value_after_password_in_another_script_is_refused(word: str, separator: str, value: str, after: str) -> None:
    assert find_secret(f"{word}{separator}{value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    ["パスワード: hunter2", "新しいパスワード：hunter2", "新密码：hunter2", "Пароль=hunter2", "şifre: hunter2", "ﾊﾟｽﾜｰﾄﾞ: hunter2", "暗証番号: 4921です"],
)
def test_a_short_password_that_ends_its_line_is_refused(text: str) -> None:
    # Half-width katakana (ﾊﾟｽﾜｰﾄﾞ) is the same word once NFKC has composed it.
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # What those languages write there that is no value: not set, none, see the vault.
        "パスワード: 未設定",
        "パスワード：なし",
        "密码：无",
        "пароль: не задан",
        "пароль: см. хранилище",
        "mot de passe : voir le coffre",
        "パスワード: ",
        # The word inside another word, or without a separator.
        "passwordşifre: x",
        "the mot de passe field is required",
        "Пароль::Type",
        # The same after a key's or a token's name; a word that also names a unit of text is none.
        "APIキー: 未設定", "密钥：无", "ключ API: не задан", "clé API : voir le coffre", "秘密鍵: ~/.ssh/id_ed25519",
        "密钥: $API_KEY", "APIキー: ${API_KEY}", "clave API: <tu-clave>", "APIキーは環境変数から読みます",
        "密钥长度: 256", "API キー: sk-...", "токен: 512", "トークン: 4096",
        # A number with its unit: a length or a count (eight characters or more, 256 bits, 12 digits).
        "パスワード: 8文字以上", "密钥: 256位", "パスワード: 12桁", "비밀번호: 8자 이상", "密码：6位数字",
        # ... also inside a sentence: at least twelve digits, changed every 90 days.
        "密码：至少12位", "密码：每90天更换一次", "パスワード：最低8文字、90日ごとに変更", "비밀번호: 최소 8자, 90일마다 변경",
        # A sentence about the value after a full-width colon, which NFKC reads as an unspaced ":".
        "password：must be rotated every 90 days", "token＝see the vault", "API キー：is in the team vault",
    ],
)  # fmt: skip
def test_words_after_password_in_another_script_are_kept(text: str) -> None:
    assert find_secret(text) is None


SENTENCES = [
    "das Passwort ist {v}",
    "la contraseña es {v}",
    "a senha é {v}",
    "lösenordet är {v}",
    "het wachtwoord is {v}",
    "passordet er {v}",
    "hasło jest {v}",
    "heslo je {v}",
    "le mot de passe est {v}",
    "Le mot de passe du serveur est {v}",
    "les mots de passe sont {v} et {v}",
    "la password è {v}",
    # with what the password is for, in the sentence's own language
    "le mot de passe de la base de données est {v}",
    "le mot de passe du serveur d'exemple est {v}",
    "das Passwort für den Router ist {v}",
    "la contraseña del servidor es {v}",
    "a senha do banco é {v}",
    # ... or the account or the service it opens, after the noun as these languages put it
    "Le mot de passe admin est {v}", "le mot de passe root est {v}", "la contraseña root es {v}", "la password wifi è {v}",
    "a senha wifi é {v}",
    "la password del server è {v}",
    "lösenordet för wifi är {v}",
    "het wachtwoord van de server is {v}",
    "Das Passwort lautet {v}",
    "das WLAN-Passwort lautet: {v}",
    "パスワードは{v}です",
    "パスワードは {v} です",
    "密码是{v}",
    "비밀번호는 {v}입니다",
    "APIキーは{v}です",
    "密钥是{v}",
    "API 키는 {v}입니다",
    # an API key's, a secret key's or an access token's name before "is" in those languages
    "la clé API est {v}",
    "La clé d'API est {v}",
    "la clé secrète est {v}",
    "le jeton d'accès est {v}",
    "le jeton API est {v}",
    "Jeton d'API : {v}",
    "der API-Schlüssel ist {v}",
    "Der API-Schlüssel lautet {v}",
    "la clave de API es {v}",
    "la clave secreta es {v}",
    "a chave de API é {v}",
    "la chiave API è {v}",
    "la chiave segreta è {v}",
    # ... also after what the key is for, before "is" or a colon
    "la clé API du service est {v}",
    "la clé API du service : {v}",
    "la clé secrète pour la production est {v}",
    "le jeton d'accès du dépôt : {v}",
    "der API-Schlüssel für Produktion ist {v}",
    "der API-Schlüssel für Produktion: {v}",
    "la clave de API del servicio es {v}",
    "la clave de API del servicio: {v}",
    "a chave de API do serviço é {v}",
    "la chiave API del servizio è {v}",
    "la chiave API del servizio = {v}",
    # languages whose "is" counts only right after their word for a password
    "salasana on {v}",
    "Salasana on {v}.",
    "kata sandi adalah {v}",
    "kata sandinya adalah {v}",
    "mật khẩu là {v}",
    "ο κωδικός πρόσβασης είναι {v}",
    "รหัสผ่านคือ {v}",
    "пароль — {v}",
    "Пароль - {v}",
    "ключ API — {v}",
    "API-ключ – {v}",
    "токен доступа — {v}",
    "секретний ключ — {v}",
    # Russian and Ukrainian: what the password or key is for, then a colon
    "пароль для сервера: {v}",
    "Пароль от базы данных: {v}",
    "пароль к роутеру: {v}",
    "ключ API для продакшена: {v}",
    "пароль до бази: {v}",
    # what it is for and a dash; Romanian's "este" after its definite form
    "пароль от сервера - {v}", "ключ API для продакшена — {v}", "Parola este {v}", "parolă: {v}",
]


@given(sentence=st.sampled_from(SENTENCES), value=mixed)
def test_a_value_after_is_in_another_language_is_refused(sentence: str, value: str) -> None:
    assert find_secret(sentence.format(v=value)) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # Descriptions and stand-ins after "is", as in English (the password is expired).
        "das Passwort ist falsch",
        "la contraseña es incorrecta",
        "a senha é obrigatória",
        "パスワードは未設定です",
        "パスワードはv2です",
        "密码是base64编码的",
        "パスワードはsha256でハッシュ化されます",
        "密码是$DB_PASSWORD",
        "le mot de passe est faux",
        "le mot de passe du serveur est faux",
        "la contraseña del servidor es incorrecta",
        "le mot de passe est changé tous les mois",
        "le mot de passe admin est oublié", "la contraseña root es obligatoria",
        "la password è scaduta",
        "das Passwort lautet anders",
        # "passe" alone, or inside another word, names no password.
        "le passe est Tr0ub4dor&3",
        # An API key's name in those languages, then a description.
        "la clé API est invalide", "der API-Schlüssel ist abgelaufen", "la clave de API es obligatoria",
        "la chiave API è scaduta", "la clé API est stockée dans le coffre", "der API-Schlüssel ist $API_KEY",
        # ... after what it is for, or where that phrase ends a clause first.
        "la clé API du service : voir le coffre", "la clé API du service est invalide",
        "der API-Schlüssel für Produktion ist abgelaufen", "der API-Schlüssel für Produktion: siehe Tresor",
        "la clave de API del servicio: 32 caracteres", "la clé API du service, la base : Postgres15x",
        "la clé API du service. Note : Xk8Qw2Lm9Rt4Pz",
        # "clave" or "chave" alone is a key of any kind, as in a keyword (palabra clave).
        "la palabra clave es Tr0ub4dor3x", "la clave es sk9Xq2LmV8rT4wZp", "a chave é sk9Xq2LmV8rT4wZp",
        "the compass est Tr0ub4dor&3",
        # Finnish "on" is no linking word here: English prose has it in every line; after the
        # Finnish word for a password it is, and words after it are judged as after "is".
        "the release branch runs on Fridays", "salasana on vaihdettu", "salasana on liian lyhyt", "the salasana on the wiki",
        "mật khẩu là bắt buộc", "kata sandi adalah wajib", "пароль — обязательное поле",
        "ключ API — обязательное поле", "пароль для сервера: см. хранилище", "пароль от базы: не задан",
        "пароль для входа: 8 символов",
        # A clause ends what a password is for: the colon after it names something else.
        "пароль для сервера не нужен, используйте ключ: id_ed25519",
    ],
)
def test_words_after_is_in_another_language_are_kept(text: str) -> None:
    assert find_secret(text) is None


# A password's word with the value right after it and no mark between, as after "password".
BARE_WORDS = ["Passwort", "Kennwort", "contraseña", "senha", "wachtwoord", "lösenord", "hasło", "heslo", "mot de passe",
              "şifre", "sunucu şifresi", "пароль", "Пароль", "parolă", "κωδικός πρόσβασης", "סיסמה"]  # fmt: skip


@given(word=st.sampled_from(BARE_WORDS), value=mixed, after=st.sampled_from(["", ".", " (prod)", " gilt bis Freitag"]))
def test_a_generated_value_right_after_a_password_s_word_in_another_language_is_refused(word: str, value: str, after: str) -> None:
    assert find_secret(f"das {word} {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "Passwort vergessen", "Passwort zurücksetzen: Link in der Mail", "mot de passe oublié", "senha forte obrigatória",
        "пароль от сервера в хранилище", "şifre sıfırlama", "Passwort-Manager Tr0ub4dor&3", "contraseña segura2024",
        "la parola è bella", "parola este simplă", "parola: Xk8Qw2Lm9Rt4Pz",  # Italian's "parola" is a word
    ],
)  # fmt: skip
def test_words_right_after_a_password_s_word_in_another_language_are_kept(text: str) -> None:
    assert find_secret(text) is None, text
