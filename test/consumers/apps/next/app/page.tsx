// A server component: it reads the service and token from the URL and renders the client component that holds the
// element, as an app would pass server-side configuration down.
import { Uploader } from './uploader';

export default async function Page({ searchParams }: PageProps<'/'>) {
  const { service, token } = await searchParams;
  return (
    <main>
      <h1>Next.js</h1>
      <Uploader serviceUrl={typeof service === 'string' ? service : 'http://127.0.0.1:8080'} token={typeof token === 'string' ? token : 'dev-token-alice'} />
    </main>
  );
}
