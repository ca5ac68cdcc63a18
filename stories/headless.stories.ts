// The headless bindings in action (issue 31): an app's own list and buttons, drawn by React hooks and by Vue
// composables from the state of a scripted uploader, with no store-* element on the page.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { createElement as h, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApp, defineComponent, h as vh } from 'vue';
import { storeFor, type TaskView, type UploadStore } from '../src/headless/index.ts';
import { useDropzone, useUploads } from '../src/react/hooks.ts';
import { useUploads as useVueUploads } from '../src/vue/composables.ts';
import { ScriptedUploader, type SeedTask } from '../test/fixtures/scripted-uploader.ts';

const meta: Meta = { title: 'Headless/Own UI', tags: ['autodocs'] };
export default meta;
type Story = StoryObj;

const MB = 1_000_000;
const TASKS: SeedTask[] = [
  { id: 'a', name: 'holiday.mov', total: 80 * MB, state: 'uploading', bytesSent: 30 * MB, speed: 4 * MB },
  { id: 'b', name: 'report.pdf', total: 2 * MB, state: 'queued' },
  { id: 'c', name: 'notes.txt', total: 3000, state: 'failed', error: { code: 'too-large', message: 'Too large' } },
];

/** What a row says, narrowed by the task's state. */
function stateText(task: TaskView): string {
  switch (task.state) {
    case 'done':
      return `Done (${task.file.id})`;
    case 'failed':
      return `Failed: ${task.error.code}`;
    case 'retrying':
      return `Retrying (${task.retry.cause})`;
    case 'uploading':
      return `${Math.round((100 * task.bytesSent) / task.total)} %`;
    default:
      return task.state;
  }
}

const storeOf = () => storeFor(new ScriptedUploader({ tasks: TASKS, autoComplete: true }));

function ReactList({ store }: { store: UploadStore }): ReactNode {
  const { tasks, totalBytes, sentBytes } = useUploads(store);
  const { props, isDragging } = useDropzone({ store });
  return h(
    'div',
    null,
    h(
      'div',
      { ...props, style: { outline: isDragging ? '2px dashed' : '1px solid', padding: 8 } },
      'Drop or paste files here, or press Enter to choose',
    ),
    h('p', null, `${tasks.length} uploads, ${Math.round((100 * sentBytes) / Math.max(1, totalBytes))} % sent`),
    h(
      'ul',
      null,
      tasks.map((t) =>
        h(
          'li',
          { key: t.id },
          `${t.name}: ${stateText(t)} `,
          h('button', { type: 'button', onClick: () => store.pause(t.id) }, `Pause ${t.name}`),
          h('button', { type: 'button', onClick: () => store.resume(t.id) }, `Resume ${t.name}`),
        ),
      ),
    ),
  );
}

/** React: `useUploads` and `useDropzone` over a store, the app's own markup and buttons. */
export const ReactHooks: Story = {
  render: () => {
    const el = document.createElement('div');
    createRoot(el).render(h(ReactList, { store: storeOf() }));
    return el;
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('holiday.mov: 38 %', { exact: false });
    await expect(canvas.getByText(/notes\.txt: Failed: too-large/)).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Pause holiday.mov' }));
    await waitFor(() => expect(canvas.getByText(/holiday\.mov: paused/)).toBeInTheDocument());
  },
};

/** Vue: `useUploads` as a shallow ref, the app's own markup and buttons. */
export const VueComposables: Story = {
  render: () => {
    const el = document.createElement('div');
    const store = storeOf();
    const List = defineComponent({
      setup() {
        const uploads = useVueUploads(store);
        return () =>
          vh(
            'ul',
            uploads.value.tasks.map((t) =>
              vh('li', { key: t.id }, [
                `${t.name}: ${stateText(t)} `,
                vh('button', { type: 'button', onClick: () => store.pause(t.id) }, `Pause ${t.name}`),
              ]),
            ),
          );
      },
    });
    createApp(List).mount(el);
    return el;
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('report.pdf: queued', { exact: false });
    await userEvent.click(canvas.getByRole('button', { name: 'Pause report.pdf' }));
    await waitFor(() => expect(canvas.getByText(/report\.pdf: paused/)).toBeInTheDocument());
  },
};
