/**
 * Passkeys (WebAuthn) in the browser, in the JSON shape the card room's server speaks
 * (docs/protocol.md, "Accounts, profiles and ratings"): the server's options come as JSON
 * with base64url fields and the credential goes back the same way.
 *
 * The browser's own converters are used where it has them
 * (`PublicKeyCredential.parseCreationOptionsFromJSON`, `parseRequestOptionsFromJSON`,
 * `credential.toJSON()`); elsewhere the few binary fields are converted here.
 *
 * @module passkey
 */

/**
 * Whether this browser, on this page, can use passkeys at all.
 * @returns {boolean}
 */
export function passkeysSupported() {
  return Boolean(window.isSecureContext && window.PublicKeyCredential && navigator.credentials);
}

/**
 * Make a new passkey for the account from the server's creation options.
 * @param {object} options `PublicKeyCredentialCreationOptionsJSON` (or `{publicKey: …}`)
 * @returns {Promise<object>} the credential as JSON, for `passkey_finish`
 */
export async function createPasskey(options) {
  const json = options.publicKey || options;
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON
    ? PublicKeyCredential.parseCreationOptionsFromJSON(json)
    : { ...json, challenge: bytes(json.challenge), user: { ...json.user, id: bytes(json.user.id) },
      excludeCredentials: (json.excludeCredentials || []).map(withBinaryId) };
  return credentialJSON(await navigator.credentials.create({ publicKey }));
}

/**
 * Sign in with a passkey the authenticator holds, from the server's request options.
 * @param {object} options `PublicKeyCredentialRequestOptionsJSON` (or `{publicKey: …}`)
 * @returns {Promise<object>} the credential as JSON, for `passkey_finish`
 */
export async function getPasskey(options) {
  const json = options.publicKey || options;
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON
    ? PublicKeyCredential.parseRequestOptionsFromJSON(json)
    : { ...json, challenge: bytes(json.challenge),
      allowCredentials: (json.allowCredentials || []).map(withBinaryId) };
  return credentialJSON(await navigator.credentials.get({ publicKey }));
}

/**
 * What to tell the player when a passkey ceremony fails in the browser.
 * @param {unknown} error what `createPasskey` or `getPasskey` threw
 * @returns {string}
 */
export function passkeyProblem(error) {
  const name = /** @type {{name?: string}} */ (error)?.name;
  if (name === "NotAllowedError" || name === "AbortError") {
    return "No passkey was used: the request was cancelled or timed out.";
  }
  if (name === "InvalidStateError") return "This device already holds a passkey for this account.";
  if (name === "SecurityError") {
    return "Passkeys cannot be used at this address: open the card room by its name (not a number).";
  }
  if (name === "NotSupportedError") return "This device has no passkey that suits the card room.";
  return `The passkey did not work: ${/** @type {Error} */ (error)?.message || error}`;
}

/** A credential descriptor with its `id` as bytes. */
function withBinaryId(descriptor) {
  return { ...descriptor, id: bytes(descriptor.id) };
}

/**
 * The credential as JSON with base64url fields (the browser's `toJSON()` where it has one).
 * @param {PublicKeyCredential} credential
 * @returns {object}
 */
function credentialJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const { response } = /** @type {any} */ (credential);
  const encoded = {};
  for (const field of ["clientDataJSON", "attestationObject", "authenticatorData", "signature", "userHandle"]) {
    if (response[field]) encoded[field] = base64url(response[field]);
  }
  if (typeof response.getTransports === "function") encoded.transports = response.getTransports();
  return {
    id: credential.id,
    rawId: base64url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
    clientExtensionResults: credential.getClientExtensionResults(),
    response: encoded,
  };
}

/**
 * Base64url text (no padding) of bytes.
 * @param {ArrayBuffer|ArrayBufferView} data
 * @returns {string}
 */
export function base64url(data) {
  const view = data instanceof ArrayBuffer ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = "";
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bytes of base64url text (padded or not).
 * @param {string} text
 * @returns {ArrayBuffer}
 */
export function bytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0)).buffer;
}
