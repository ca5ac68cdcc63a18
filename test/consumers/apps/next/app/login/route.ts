// The app's own sign-in, as small as it gets: a session cookie, then back to the page.
export function GET(request: Request): Response {
  return new Response(null, {
    status: 303,
    headers: {
      Location: new URL('/own-server', request.url).toString(),
      'Set-Cookie': 'session=alice%40example.com; Path=/; HttpOnly; SameSite=Lax',
    },
  });
}
