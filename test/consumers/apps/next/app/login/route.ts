// The app's own sign-in, as small as it gets: a session cookie, then back to the page. The Location is relative:
// `next start` builds request.url from its own name (http://localhost:PORT), so a URL made from it would send a
// browser that came to 127.0.0.1 to another origin, where the cookie just set does not go.
export function GET(): Response {
  return new Response(null, {
    status: 303,
    headers: {
      Location: '/own-server',
      'Set-Cookie': 'session=alice%40example.com; Path=/; HttpOnly; SameSite=Lax',
    },
  });
}
