// A row as an app draws its own: the README's headless snippet (Uploads.tsx, copied from README.md and held to it by
// test/repo/readme-snippets.test.ts) renders one per task.
import type { TaskView } from 'store-upload-kit/react/hooks';

export function Row({ task, onPause }: { task: TaskView; onPause: () => void }) {
  return (
    <li>
      {task.name}: {task.state}{' '}
      <button type="button" onClick={onPause}>
        Pause
      </button>
    </li>
  );
}
