'use client';
// The uploader pointed at this app's own /api/store (the service inside the app), signed in by the app's cookie.
import { useEffect, useState } from 'react';
import { StoreUploader } from 'store-upload-kit/react';

export default function OwnServer() {
  const [base, setBase] = useState<string>();
  const [ids, setIds] = useState<readonly string[]>([]);
  useEffect(() => setBase(`${window.location.origin}/api/store`), []);
  return (
    <>
      {base && (
        <StoreUploader baseUrl={base} token="signed-in-by-cookie" onChange={(e) => setIds(e.currentTarget.value)} />
      )}
      <p>
        Uploaded: <output id="ids">{ids.join(' ')}</output>
      </p>
    </>
  );
}
