// React ('use client' in Next.js); Row is your own component that draws a task.
import { useDropzone, useUploader, useUploads } from 'store-upload-kit/react/hooks';
import { Row } from './Row';

export function Uploads({ baseUrl, token }: { baseUrl: string; token: string }) {
  const store = useUploader({ baseUrl, getAccessToken: () => token });
  const { tasks } = useUploads(store);
  const { props, isDragging } = useDropzone({ store });
  return (
    <>
      <div {...props} data-over={isDragging}>
        Drop files here or choose them
      </div>
      <ul>
        {tasks.map((t) => (
          <Row key={t.id} task={t} onPause={() => store.pause(t.id)} />
        ))}
      </ul>
    </>
  );
}
