// Accounts at the reference service, as a real sign-in and sign-out make them: tokens issued and revoked at run time.

/** Issues `token` for `user` (an e-mail address) until it is revoked. */
export async function grantToken(baseUrl: string, token: string, user: string): Promise<void> {
  const res = await fetch(`${baseUrl}/__admin/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, user }),
  });
  if (res.status !== 201) throw new Error(`grant ${token}: ${res.status} ${await res.text()}`);
}

/** Revokes `token`: every later request bearing it gets 401, as after a real sign-out. */
export async function revokeToken(baseUrl: string, token: string): Promise<void> {
  const res = await fetch(`${baseUrl}/__admin/tokens/${encodeURIComponent(token)}`, { method: 'DELETE' });
  if (res.status !== 204) throw new Error(`revoke ${token}: ${res.status} ${await res.text()}`);
}

/** The names of the files `token`'s account owns, newest first (what its drive shows). */
export async function driveOf(baseUrl: string, token: string): Promise<string[]> {
  const res = await fetch(`${baseUrl}/store/v3/files?fields=files(name)&pageSize=1000`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`list as ${token}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { files: { name: string }[] }).files.map((file) => file.name);
}
