"""The director's password: checked rules, argon2id hashes (argon2-cffi), constant-time checks.

Only the hash is ever stored (where: the caller's business — ``bgboard club
director-password`` keeps it in the club database).  :func:`hash_password` refuses a password
that is too short or too long with one sentence; :func:`verify` never raises for a wrong or
malformed hash, it answers False.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from bgboard.errors import InputError

MIN_LENGTH = 8
MAX_LENGTH = 256
_HASHER = PasswordHasher()  # argon2id with the library's current recommended parameters


class PasswordRuleError(InputError):
    """A director password that cannot be used."""


def check(password: str) -> str:
    """``password`` if it is usable, else :class:`PasswordRuleError` saying why."""
    if len(password) < MIN_LENGTH:
        raise PasswordRuleError(f"the director password needs at least {MIN_LENGTH} characters")
    if len(password) > MAX_LENGTH:
        raise PasswordRuleError(f"the director password may have at most {MAX_LENGTH} characters")
    if password != password.strip():
        raise PasswordRuleError("the director password may not start or end with a space")
    return password


def hash_password(password: str) -> str:
    """The argon2id hash string of a checked password."""
    return _HASHER.hash(check(password))


def verify(stored_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored_hash`` (False when no hash is set, or the
    password is longer than any allowed one)."""
    if not stored_hash or len(password) > MAX_LENGTH:
        return False
    try:
        return _HASHER.verify(stored_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
