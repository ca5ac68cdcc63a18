// Two parts of the page side that need a window: the hold on leaving the page (page/navigation-hold.ts) and the
// pacing of `change` to the page's frames (page/change-signal.ts). Leaving is asked as the browser asks it, with a
// cancelable `beforeunload` event.
import { expect } from '@open-wc/testing';
import { holdNavigation } from '../../../src/uploader/page/navigation-hold.ts';
import { ChangeSignal } from '../../../src/uploader/page/change-signal.ts';

/** Whether leaving the page now would be confirmed. */
function leavingAsked(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  dispatchEvent(event);
  return event.defaultPrevented;
}

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

describe('holding navigation', () => {
  it('a hold released twice lets go once: another hold still keeps leaving asked', () => {
    expect(leavingAsked(), 'nothing held').to.equal(false);
    const first = holdNavigation();
    const second = holdNavigation();
    first();
    first();
    expect(leavingAsked(), 'the second hold stands').to.equal(true);
    second();
    expect(leavingAsked(), 'both released').to.equal(false);
  });
});

describe('the change signal in a visible page', () => {
  it("fires in the next frame, before that frame's callbacks asked for after it", async () => {
    expect(document.hidden, 'the test page is visible').to.equal(false);
    // Scheduled late in a frame, so the next frame comes well before 16 ms have passed (a timer's pace).
    const seen = await new Promise<boolean>((resolve) => {
      requestAnimationFrame((start) => {
        while (performance.now() - start < 10) {
          // the frame's own work, late in it
        }
        let fired = false;
        const signal = new ChangeSignal(() => (fired = true), { size: 1 });
        signal.schedule();
        requestAnimationFrame(() => {
          signal.stop();
          resolve(fired);
        });
      });
    });
    expect(seen, 'the change fired before the next paint').to.equal(true);
    await frame();
  });
});
