"""Secrets that are neither a password nor a key, after their names and in the shape they are
issued in: a PIN, a passcode, a wallet's seed phrase, an account's recovery codes, a disk's
recovery key or an app password."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory import errors
from tact_memory.screening.credentials import find_secret
from tact_memory.screening.vocabulary import GRAMMAR_WORD

PIN_NAMES = ["PIN", "pin", "Pin", "SIM PIN", "PIN code", "pin_code", "pincode", "PinCode", "PIN-Code", "PINCODE", "PUK", "SIM PUK",
             "PUK code", "puk_code"]  # fmt: skip
SEPARATORS = [": ", ":", "=", " = ", " is ", " was "]


def _example(digits: str) -> bool:
    steps = {int(b) - int(a) for a, b in zip(digits, digits[1:])}
    return steps in ({0}, {1}, {-1})


pins = st.text(string.digits, min_size=4, max_size=8).filter(lambda d: not _example(d))


@pytest.mark.parametrize(
    "text",
    [
        "the PIN for the office door is 4921",
        "SIM PIN of the test phone: 4921",
        "GitHub recovery codes for the admin account: 3f9a2-c81d0 7b1e4-09ac2",
        "seed phrase for the ledger: ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
    ],
)
def test_what_the_secret_is_for_may_stand_before_its_value(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@given(name=st.sampled_from(PIN_NAMES), separator=st.sampled_from(SEPARATORS), pin=pins,
       quote=st.sampled_from(["", '"', "'"]), after=st.sampled_from(["", ".", "\n", " (the office door)", ", then #"]))  # fmt: skip
def test_a_pin_after_its_name_is_refused(name: str, separator: str, pin: str, quote: str, after: str) -> None:
    assert find_secret(f"the {name}{separator}{quote}{pin}{quote}{after}") == "credential_assignment"


@given(before=st.sampled_from(["", "the ", "SIM ", "office door "]), word=st.sampled_from(["PIN", "PUK"]), pin=pins,
       after=st.sampled_from(["", ".", "\n", ", then #", " for the office door", " of the safe", " (rotate monthly)"]))  # fmt: skip
def test_digits_right_after_pin_in_capitals_that_end_their_clause_are_refused(before: str, word: str, pin: str, after: str) -> None:
    text = f"{before}{word} {pin}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # A pin of a circuit: joined to its name, or numbered below a thousand.
        "GPIO_PIN = 4921",
        "LED_PIN: 1300",
        "pin: 17",
        "the LED pin is 13",
        "pin for the LED: 13",
        "the PIN for the demo is 1234",
        # Examples and defaults: one digit repeated, or a run.
        "PIN: 0000",
        "the default PIN is 1234",
        "PIN = 654321",
        # Part of something longer: a date, a decimal, a version, a word, a longer number.
        "PIN: 2024-01-01",
        "pin: 1.5",
        "pin=4921x",
        "PIN: 1234567890123",
        "PIN is 4 digits long",
        # No colon or "is" after PIN: digits that go on into words, and a board's lower-case pin
        "PIN 2024 rollout", "pin 4921", "Pin 4921 on the header", "PIN 1234", "PIN 4921x",
        # The word inside another.
        "spinning: 4921",
        "opinion = 4921",
    ],
)
def test_what_is_no_pin_is_kept(text: str) -> None:
    assert find_secret(text) is None


DOOR_CODES = ["door code", "Door code", "gate code", "alarm code", "ALARM_CODE", "keypad code", "lockbox code", "garage-code", "doorcode",
              "unlock code", "phone's unlock code", "UNLOCK_CODE"]  # fmt: skip


@given(name=st.sampled_from(DOOR_CODES), separator=st.sampled_from(SEPARATORS), pin=pins,
       after=st.sampled_from(["", ".", "#", "\n", " (the office door)"]))  # fmt: skip
def test_a_door_gate_or_alarm_code_is_a_pin(name: str, separator: str, pin: str, after: str) -> None:
    assert find_secret(f"the {name}{separator}{pin}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "error code: 4921",
        "exit code is 1234",
        "the door code is 1234",
        "gate code: 2024-01-05",
        "alarm code: 1.2.3",
        "gate code is 0000",
        "the door code is 4 digits long",
        "trapdoor code: 4921x",
    ],
)
def test_what_is_no_door_code_is_kept(text: str) -> None:
    assert find_secret(text) is None


@given(name=st.sampled_from(["passcode", "Passcode", "PASSCODE", "pass code", "pass-code", "meeting passcode"]),
       separator=st.sampled_from(SEPARATORS), pin=pins, after=st.sampled_from(["", ".", "\n", " (the phone)"]))  # fmt: skip
def test_a_passcode_of_digits_is_a_pin_also_after_is(name: str, separator: str, pin: str, after: str) -> None:
    assert find_secret(f"the {name}{separator}{pin}{after}") == "credential_assignment"


# A meeting's passcode right after its name, as an invitation pastes it: no colon or "is".
@given(before=st.sampled_from(["", "Zoom 823 4567 8901, ", "Meeting ID 823 4567 8901 ", "- "]),
       word=st.sampled_from(["passcode", "Passcode", "PASSCODE"]), pin=pins,
       after=st.sampled_from(["", ".", "\n", " for the standup", " (the phone)"]))  # fmt: skip
def test_digits_right_after_passcode_that_end_their_clause_are_refused(before: str, word: str, pin: str, after: str) -> None:
    text = f"{before}{word} {pin}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "the passcode is 1234", "passcode is 6 digits", "bypass code: 4921", "the pass is 4921", "the passcode is 2024-01-05",
        "passcode 2024 rollout", "passcode 123456", "the passcode 482913 expired yesterday",
    ],
)  # fmt: skip
def test_what_is_no_passcode_of_digits_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize("text", ["passcode: 482913", "PASSCODE=Xk2mQ9", "the passcode is Xk2mQ9", "passcodes: Tr0ub4dor&3"])
def test_a_passcode_is_named_as_a_password_is(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize("text", ["passcode = get_passcode()", "passcode: str", "passcode: passcode", "the passcode is required"])
def test_code_and_words_after_passcode_are_kept(text: str) -> None:
    assert find_secret(text) is None


@given(
    name=st.sampled_from(["Safe combination", "the lock combo", "Padlock combination", "combo", "Combination for the gym locker", "COMBINATION"]),
    separator=st.sampled_from([": ", " is ", " = ", " - "]),
    numbers=st.lists(st.integers(0, 99), min_size=3, max_size=5).filter(
        lambda ns: {b - a for a, b in zip(ns, ns[1:])} not in ({0}, {1}, {-1})
    ),
    joint=st.sampled_from(["-", " - ", " "]),
    after=st.sampled_from(["", ".", "\n", " for the office safe", " (left first)"]),
)
def test_a_lock_s_combination_after_its_name_is_refused(name: str, separator: str, numbers: list[int], joint: str, after: str) -> None:
    text = f"{name}{separator}{joint.join(map(str, numbers))}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "padlock combo: 4821", "the safe combination is 482913", "alarm code 48291", "garage door code 4829 for deliveries",
        "the gate code 7391.",
    ],
)  # fmt: skip
def test_digits_after_a_lock_s_or_a_door_s_code_name_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # a run, one number repeated, a ratio, a count, words after the numbers, no lock before digits
        "combo: 1-2-3", "combo: 21-20-19", "combination: 7-7-7", "Ratio combination: 50/30/20", "the combination of flags: 3",
        "combination: 120", "combination: 10-20-30 mix", "Combo box: 12-34-56", "combination of 3-4-5 triangles",
        "door code 2024 rollout", "error code 4040", "alarm code 1234",
    ],
)  # fmt: skip
def test_what_is_no_combination_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# Lower-case words of three to eight letters, as a seed phrase's wordlist has (a sample, drawn by
# hypothesis, not the wordlist itself).
seed_word = st.text(string.ascii_lowercase, min_size=3, max_size=8).filter(lambda word: not re.fullmatch(GRAMMAR_WORD, word.encode()))
SEED_NAMES = ["mnemonic", "MNEMONIC", "Mnemonic phrase", "seed phrase", "Seed words", "SEED_PHRASE", "recovery phrase",
              "secret recovery phrase", "wallet recovery seed", "wallet seed", "Wallet phrase", "WALLET_MNEMONIC", "secret phrase",
              "BIP39", "bip-39 mnemonic", "BIP39 seed", "12 words", "the 24 words", "24-word phrase", "twelve words",
              "Twenty-four words", "the 12-word seed", "Seed phrase (Ledger)", "Metamask phrase", "MetaMask seed phrase", "Phantom seed",
              "Ledger words", "TREZOR_RECOVERY_PHRASE"]  # fmt: skip
seed_words = st.sampled_from([12, 15, 18, 21, 24]).flatmap(lambda n: st.lists(seed_word, min_size=n, max_size=n, unique=True))


@given(name=st.sampled_from(SEED_NAMES), separator=st.sampled_from([": ", "=", " is ", " is: ", " are: ", " - ", " \u2014 "]),
       words=seed_words, quote=st.sampled_from(["", '"', "'"]),
       after=st.sampled_from(["", "\n", ".", " (on paper in the safe)"]))  # fmt: skip
def test_a_seed_phrase_after_its_name_is_refused(name: str, separator: str, words: list[str], quote: str, after: str) -> None:
    text = f"{name}{separator}{quote}{' '.join(words)}{quote}{after}"
    assert find_secret(text) == "credential_assignment"


def _numbered(words: list[str], style: str) -> list[str]:
    return [style.format(n=n, word=word) for n, word in enumerate(words, 1)]


@given(name=st.sampled_from(SEED_NAMES), words=seed_words,
       style=st.sampled_from(["{word}", "{n}. {word}", "{n}) {word}", "{n} {word}", "{n}.{word}"]),
       layout=st.sampled_from([": {}", ":\n{}", "\n{}", ":\n\n  {}", " -\n{}"]),
       joiner=st.sampled_from([" ", ", ", "\n", "\n- ", "\n* "]),
       after=st.sampled_from(["", "\n", "\n\nKeep it offline.", "\nstored in the safe"]))  # fmt: skip
def test_a_seed_phrase_numbered_listed_or_on_the_lines_below_is_refused(
    name: str, words: list[str], style: str, layout: str, joiner: str, after: str
) -> None:
    items = _numbered(words, style)
    if joiner.startswith("\n"):
        assume(layout != ": {}")  # a list's words begin below their name
        body = joiner.lstrip("\n") + joiner.join(items)
    else:
        body = joiner.join(items)
    text = name + layout.format(body) + after
    assert find_secret(text) == "credential_assignment", text


@given(name=st.sampled_from(SEED_NAMES), words=seed_words, columns=st.integers(2, 6), style=st.sampled_from(["{n}. {word}", "{n}) {word}", "{n} {word}"]),
       gap=st.sampled_from(["  ", "   ", "\t"]), layout=st.sampled_from([":\n{}", "\n{}", ":\n\n{}"]))  # fmt: skip
def test_a_seed_phrase_in_a_grid_of_numbered_words_is_refused(name: str, words: list[str], columns: int, style: str, gap: str, layout: str) -> None:
    items = _numbered(words, style)
    rows = [gap.join(items[i : i + columns]) for i in range(0, len(items), columns)]
    text = name + layout.format("\n".join(rows))
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "Seed phrase - ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
        "The seed phrase is: ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
        "wallet seed: legal winner thank year wave sausage worth useful legal winner thank yellow",
        "the 12 words are: ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
        "ledger 24 words: ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic legal winner year wave "
        "sausage worth useful yellow letter advice cage absurd",
        "BIP39: ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
        "Seed phrase:\nozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
        "Seed phrase (ledger):\n\n  ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic\n",
        "seed phrase: 1. ozone 2. drill 3. grab 4. fiber 5. curtain 6. grace 7. pudding 8. thank 9. cruise 10. elder 11. eight 12. picnic",
        "Recovery phrase:\n1. ozone\n2. drill\n3. grab\n4. fiber\n5. curtain\n6. grace\n7. pudding\n8. thank\n9. cruise\n10. elder\n"
        "11. eight\n12. picnic",
    ],
)
def test_seed_phrases_in_the_forms_notes_write_them_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # Hardhat's and the BIP-39 test vectors' well-known phrases repeat their words.
        'MNEMONIC="test test test test test test test test test test test junk"',
        "mnemonic: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
        # Prose after the name: short words, or not as many words as a seed phrase has.
        "Seed phrase: write it down on paper and keep it somewhere safe",
        "mnemonic: the opcode names used by the assembler when printing each instruction mnemonic",
        "seed phrase: twelve random words from the list",
        "mnemonic = generate_mnemonic(strength=128)",
        "seed: ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
        # Sentences after the newer names: more words of grammar than the wordlist gives a phrase.
        "the 12 words are: the ones you wrote on the card when you set up the wallet",
        "wallet seed: generated from the hardware device when you first power it and never shown",
        "secret phrase: whisper this into the microphone then press enter and wait for the tone",
        "BIP39 mnemonic: twelve words from a list of many that encode random bits with checksum",
        "Seed phrase:\nwrite it down on paper and keep it somewhere safe from water and fire",
        # One word to a line for fewer lines than a phrase has, then prose.
        "Seed words:\nozone\ndrill\ngrab\nfiber\nwrite the rest down later when the card is back",
        # Numbered lines of a list that are steps, not words of a phrase.
        "Seed phrase:\n1. write 2. it\n3. down", "Seed words:\n1 step 2 open\n3 the box",
    ],
)
def test_what_is_no_seed_phrase_is_kept(text: str) -> None:
    assert find_secret(text) is None


def test_a_seed_phrase_of_another_length_is_kept() -> None:
    words = "ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic".split()
    for count in (11, 13, 14):
        phrase = " ".join((words * 2)[:count])
        assert find_secret(f"seed phrase: {phrase}") is None, count


RECOVERY_NAMES = ["recovery codes", "Recovery code", "backup codes", "BACKUP_CODES", "recovery key", "the recovery key", "unlock code",
                  "Activation key", "activation_code"]  # fmt: skip


@pytest.mark.parametrize(
    "code",
    [
        "3f9a2-c81d0",  # GitHub: two groups of five, hex
        "48291-37465",  # GitHub's, whose hex digits happen to be digits alone
        "8F3K-2LQ9-XM4P",
        "4830 1957",  # Google: eight digits
        "48301957",
        "ABCD-EFGH-IJKL-MNOP-QRST-UVWX",  # FileVault: six groups of capitals
        "123456-654321-111111-222222-333333-444444-555555-666666",  # BitLocker: eight groups of digits
    ],
)
@pytest.mark.parametrize("name", RECOVERY_NAMES)
def test_a_recovery_code_after_its_name_is_refused(name: str, code: str) -> None:
    assert find_secret(f"{name}: {code}") == "credential_assignment"
    assert find_secret(f"{name} is {code}.") == "credential_assignment"


# Codes whose shape says what they are, with no colon or "is" after the name: after a space or a
# dash, or listed on the lines below it.
LISTED_FORMS = ["{n} {a} {b}", "{n} - {a}, {b}", "{n}\n{a}\n{b}", "{n}:\n- {a}\n- {b}", "{n} for the admin account:\n\n  {a}  {b}"]
group = st.text("abcdef0123456789", min_size=5, max_size=5).filter(lambda g: any(c.isdigit() for c in g) and any(c.isalpha() for c in g))
dashed = st.tuples(group, group).map("-".join)


@given(
    name=st.sampled_from(RECOVERY_NAMES),
    form=st.sampled_from(LISTED_FORMS),
    codes=st.one_of(st.tuples(dashed, dashed), st.tuples(st.integers(10**7, 10**8 - 1).map(str), st.integers(10**7, 10**8 - 1).map(str))),
)
def test_recovery_codes_listed_after_their_name_are_refused(name: str, form: str, codes: tuple[str, str]) -> None:
    assume(len(set(codes[0]) - {"-"}) >= 4 and len(set(codes[0])) > 2)
    text = form.format(n=name, a=codes[0], b=codes[1])
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # no code's shape after a name with no colon: words, a single number, a key type, a date
        "backup codes 2FA setup guide", "recovery key rotation-2024", "backup code path /src", "recovery codes 12345678",
        "backup keys ed25519-sk", "the recovery codes flow", "backup codes 2024 release", "recovery codes - see 1Password",
        "backup job 20240101 and 20240102", "recovery codes\n- store them in the vault",
    ],
)  # fmt: skip
def test_words_after_recovery_codes_name_without_a_colon_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A code issued in no shape of its own: one run that looks generated, after a colon or "is". Letters
# and digits drawn at random read as a class name once in a few hundred draws (Aaaaa0Bbi, as
# Hello2World: capitalised words with vowels; the screen keeps those, see vocabulary.TYPE_NAME), so
# codes made only of capitalised words and digits are left out.
_WORDS_AND_DIGITS = re.compile(r"(?:[A-Z]?[0-9]*[A-Z][a-z]{2,}[0-9]*)+")
generated_code = st.text(string.ascii_letters + string.digits, min_size=8, max_size=24).filter(
    lambda c: sum((any(x.islower() for x in c), any(x.isupper() for x in c), any(x.isdigit() for x in c))) == 3
    and len(set(c)) >= 6
    and (c[0].isdigit() or _WORDS_AND_DIGITS.fullmatch(c) is None)
)


@given(name=st.sampled_from(RECOVERY_NAMES), separator=st.sampled_from([": ", " is ", " = ", ":\t"]), code=generated_code,
       after=st.sampled_from(["", ".", "\n", " (single use)"]))  # fmt: skip
def test_a_generated_code_in_no_shape_after_its_name_is_refused(name: str, separator: str, code: str, after: str) -> None:
    text = f"{name}{separator}{code}{after}"
    assert find_secret(text) == "credential_assignment", text


def test_a_code_that_starts_with_a_digit_is_no_class_name() -> None:
    # Hypothesis found this one: words after the digit read as a class name's (Http2Client), but
    # no name in code starts with a digit.
    assert find_secret("recovery codes: 0AaaAabcd") == "credential_assignment"
    assert find_secret("password = 9HelloWorld") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "recovery code: retry-loop",  # code that recovers from errors
        "recovery code: retry-loop-back-off",
        "backup code: 2024-01-01",
        "backup codes: 12345678",
        "backup key: AAAA-AAAA-AAAA-AAAA",
        "recovery key: see the team vault",
        "recovery codes: 10 single-use codes",
        "Activation code: sent by email", "the activation code is in the welcome email", "activation key: see LICENSE.txt",
        "unlock code: ask the front desk", "activation_code = request.GET['code']", "UNLOCK_CODE=${UNLOCK_CODE}",
        "activation codes are single use", "the unlock code is 1234", "PUK: 12345678", "puk 83920174",
    ],
)
def test_what_is_no_recovery_code_is_kept(text: str) -> None:
    assert find_secret(text) is None


APP_PASSWORD_FORMS = ["app password: {}", "The app password for Gmail is {}", "Gmail App Password = {}", "APP_PASSWORD={}",
                      "the Google app password for the CI mailer: {}"]  # fmt: skip
quartet = st.text("abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=4)


@given(form=st.sampled_from(APP_PASSWORD_FORMS), groups=st.lists(quartet, min_size=4, max_size=4, unique=True))
def test_an_app_password_in_googles_shape_is_refused(form: str, groups: list[str]) -> None:
    assume(not any(re.fullmatch(GRAMMAR_WORD, group.encode()) for group in groups))  # words of a sentence
    text = form.format(" ".join(groups))
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "the app password is also sent when you ask", "App password: aaaa aaaa aaaa aaaa", "app password: abcd efgh ijkl",
        "the app passwords page lists them", "app password: see the team vault",
    ],
)  # fmt: skip
def test_what_is_no_app_password_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


def test_a_refused_pin_is_not_echoed_and_not_stored(store: Any) -> None:
    """Like every refusal, these name the kind and never the value, and store nothing."""
    pin = "739204"
    with pytest.raises(errors.SecretRejected) as raised:
        store.put(f"the vault PIN is {pin}")
    assert raised.value.details()["kind"] == "credential_assignment"
    assert pin not in str(raised.value) and pin not in repr(raised.value.details())
    assert store.list_records() == []
