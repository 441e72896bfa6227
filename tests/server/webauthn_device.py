"""A software passkey for the server's tests: what a platform authenticator and the browser
hand the server at registration (attestation ``none``) and at sign-in (an assertion signed
with the credential's P-256 key), built from the WebAuthn specification's byte layouts.

The browser tests use Chromium's own virtual authenticator; this one lets the protocol tests
tamper with every field.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

FLAG_USER_PRESENT = 0x01
FLAG_USER_VERIFIED = 0x04
FLAG_ATTESTED = 0x40


def b64url(data: bytes) -> str:
    """base64url without padding, as WebAuthn's JSON forms use."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftPasskey:
    """One discoverable credential on a software authenticator."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    credential_id: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    sign_count: int = 0
    user_handle: bytes | None = None

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})

    def _auth_data(self, rp_id: str, attested: bool) -> bytes:
        flags = FLAG_USER_PRESENT | FLAG_USER_VERIFIED | (FLAG_ATTESTED if attested else 0)
        data = hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) \
            + struct.pack(">I", self.sign_count)
        if attested:
            data += bytes(16) + struct.pack(">H", len(self.credential_id)) \
                + self.credential_id + self._cose_key()
        return data

    def create(self, options: dict[str, Any], origin: str) -> dict[str, Any]:
        """The browser's ``credential.toJSON()`` after ``navigator.credentials.create``."""
        self.user_handle = unb64url(options["user"]["id"])
        client_data = json.dumps({"type": "webauthn.create", "challenge": options["challenge"],
                                  "origin": origin}).encode()
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {},
                                   "authData": self._auth_data(options["rp"]["id"], True)})
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id),
                "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data),
                             "attestationObject": b64url(attestation),
                             "transports": ["internal"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def get(self, options: dict[str, Any], origin: str) -> dict[str, Any]:
        """The browser's ``credential.toJSON()`` after ``navigator.credentials.get``."""
        self.sign_count += 1
        client_data = json.dumps({"type": "webauthn.get", "challenge": options["challenge"],
                                  "origin": origin}).encode()
        auth_data = self._auth_data(options["rpId"], False)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(),
                                  ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id),
                "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data),
                             "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature),
                             "userHandle": b64url(self.user_handle or b"")},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}
