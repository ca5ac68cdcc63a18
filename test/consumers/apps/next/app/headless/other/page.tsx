// A server component that renders the app's own upload UI (no store-* element); the list is empty on the server.
import { HeadlessUploads } from '../uploads';

export default async function Page({ searchParams }: PageProps<'/headless/other'>) {
  const { service, token } = await searchParams;
  return (
    <main>
      <HeadlessUploads
        serviceUrl={typeof service === 'string' ? service : 'http://127.0.0.1:8080'}
        token={typeof token === 'string' ? token : 'dev-token-alice'}
        title="Other page"
        other="/headless"
      />
    </main>
  );
}
