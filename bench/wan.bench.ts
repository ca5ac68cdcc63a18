/**
 * Uploads through an emulated WAN link (issue 21; `bench/wan/link.ts`), in headless Chromium, over HTTP/2 and over
 * HTTP/1.1 (the same HTTPS service; Chromium started with `--disable-http2` for the latter), at RTT 100 ms / 40 Mbit/s
 * and RTT 20 ms / 200 Mbit/s: one 64 MiB file with the kit's defaults, the same with `chunkSize: 'adaptive'`, 400
 * files of 64 KiB with the defaults, and a hand-written raw client (session start + one PUT; one multipart request
 * per small file with 6 and with 32 in flight). Each case starts in a fresh browser context (cold connections, no
 * cached preflight) on the plain upload page, files chosen from disk. Reported: time ÷ the physical limit (bytes ÷
 * bandwidth + 2 RTT for the big file, + 1 RTT for the small ones), requests per file (counted by the service), the
 * link's idle time and idle gaps. Before that, Node-side: the link against its own definition, and HTTP/2 ÷ HTTP/1.1
 * on loopback (Node clients, then Chromium: raw PUT and the kit, 256 MiB from disk, BENCH_WAN_LOOPBACK_MB).
 * The peers in the same run: tus-js-client and Uppy (+ @uppy/tus) into a tus server (@tus/server + @tus/file-store)
 * on the same link and transport. Env: BENCH_WAN_LINKS (e.g. "100/40,20/200"), BENCH_WAN_PROTOCOLS ("h2,h1"),
 * BENCH_WAN_CASES (a regular expression of case names; the `probe…` cases only when named, e.g. `^(kitWhole|kitAdaptive|rawWhole)$` for the
 * big-file cases), BENCH_WAN_CPU_THROTTLE=4 (every case with the page's CPU 4× slower over CDP, figures tagged _cpu4x; unset, the kit's kitWhole and kitSmall run once more at 4× on the 100 ms / 40 Mbit/s link over HTTP/2), BENCH_WAN_TRACE=1 (a per-request timeline of each one-file case; for many files, when the POSTs and the other requests reached the service), BENCH_WAN_PROFILE=<file> (the page's CPU profile, from before the files are chosen to the end of the case, as a .cpuprofile), BENCH_WAN_LOOPBACK_MB (0: no loopback part). Runs itself under
 * the Chromium lock.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from '../test/e2e/demo-fixture.ts';
import { startUploadPage } from '../test/client/helpers/upload-page.ts';
import { runLocked } from './bench-page.ts';
import type { BenchResult, BenchTarget } from './types.ts';
import { runCase, type CaseFigures, type CaseSetup, type DiskFile, type Uploader } from './wan/browser-cases.ts';
import { startCountedService } from './wan/counted-service.ts';
import { startLink } from './wan/link.ts';
import { loopbackProtocols, validateLink } from './wan/node-clients.ts';
import { buildPeerScript } from './wan/peer-clients.ts';
import { TUS_PATH } from './wan/tus-server.ts';

const MiB = 1024 * 1024;
const SMALL_FILES = 400;
const SMALL_SIZE = 64 * 1024;
const BIG_MIB = 64;

type Figures = { metrics: Record<string, number | string>; ratios: Record<string, number> };

function diskFile(dir: string, name: string, bytes: Buffer): DiskFile {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, name, size: bytes.length, md5: createHash('md5').update(bytes).digest('hex') };
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The cases of one link: name, uploader, files. Peers upload into the tus server (tus-js-client's default: one PATCH). */
function cases(big: DiskFile[], small: DiskFile[]): [string, Uploader, DiskFile[]][] {
  const peer = (lib: 'tus' | 'uppy', inFlight: number, options: object = {}): Uploader => ({
    kind: 'peer',
    lib,
    inFlight,
    options,
  });
  return [
    ['kitWhole', { kind: 'kit', options: {} }, big],
    ['kitAdaptive', { kind: 'kit', options: { chunkSize: 'adaptive' } }, big],
    ['kitSmall', { kind: 'kit', options: {} }, small],
    // Attribution only (run when BENCH_WAN_CASES names them): the kit without its resume copy, without its MD5 check.
    ['probeKitWholeNoCopy', { kind: 'kit', options: { persist: { blobQuotaBytes: 0 } } }, big],
    ['probeKitWholeNoVerify', { kind: 'kit', options: { verify: false } }, big],
    ['rawWhole', { kind: 'rawWhole' }, big],
    ['rawSmall6', { kind: 'rawSmall', inFlight: 6 }, small],
    ['rawSmall32', { kind: 'rawSmall', inFlight: 32 }, small],
    ['tusWhole', peer('tus', 1), big],
    ['tusChunks8MiB', peer('tus', 1, { chunkSize: 8 * MiB }), big],
    ['tusSmall20', peer('tus', 20), small],
    ['tusSmall20CreationWithUpload', peer('tus', 20, { uploadDataDuringCreation: true }), small],
    ['uppyWhole', peer('uppy', 20), big],
    ['uppySmall20', peer('uppy', 20), small],
  ];
}

async function measure(): Promise<Figures> {
  const began = performance.now();
  const { chromium } = await import('playwright-core');
  const { CHROMIUM_ARGS, CHROMIUM_PATH } = (await import(
    pathToFileURL(resolve(import.meta.dirname, '../test/browser/chromium.js')).href
  )) as { CHROMIUM_ARGS: string[]; CHROMIUM_PATH: string };
  const links = (process.env.BENCH_WAN_LINKS ?? '100/40,20/200')
    .split(',')
    .map((l) => l.split('/').map(Number) as [number, number]);
  const protocols = (process.env.BENCH_WAN_PROTOCOLS ?? 'h2,h1').split(',');
  const loopMiB = Number(process.env.BENCH_WAN_LOOPBACK_MB ?? 256);
  const only = new RegExp(process.env.BENCH_WAN_CASES ?? '^(?!probe)');
  const dir = mkdtempSync(join(tmpdir(), 'bench-wan-'));
  const service = await startCountedService();
  const pages = await startUploadPage();
  const metrics: Record<string, number | string> = {
    loadavgBefore: loadavg()
      .map((x) => round(x, 2))
      .join(' '),
  };
  const ratios: Record<string, number> = {};
  try {
    console.error('wan: checking the link against its definition…');
    for (const [rtt, mbit] of links) {
      const v = await validateLink(service.port, service.ca, rtt, mbit, mbit >= 100 ? 32 : 16);
      metrics[`link_${rtt}ms_${mbit}Mbit_rawPut_vs_limit`] = round(v.putRatio);
      metrics[`link_${rtt}ms_${mbit}Mbit_tinyRequest_rtts`] = round(v.tinyRequestRtts);
      ratios[`link_${rtt}_${mbit}_put`] = v.putRatio;
      // Node's HTTP/2 and HTTP/1.1 clients through the link: where the service's flow-control windows show.
      const link = await startLink({ upstream: `127.0.0.1:${service.port}`, rttMs: rtt, upMbit: mbit, downMbit: mbit });
      try {
        const p = await loopbackProtocols(
          `https://127.0.0.1:${link.port}`,
          service.ca,
          mbit >= 100 ? 32 : 16,
          1,
          service.cpuSeconds,
        );
        metrics[`link_${rtt}ms_${mbit}Mbit_node_http1_s`] = round(p.http1_s);
        metrics[`link_${rtt}ms_${mbit}Mbit_node_http2_s`] = round(p.http2_s);
        ratios[`link_${rtt}_${mbit}_node_h2_vs_h1`] = p.ratio;
      } finally {
        await link.close();
      }
    }
    if (loopMiB > 0) {
      console.error(`wan: HTTP/2 vs HTTP/1.1 on loopback, Node clients, ${loopMiB} MiB…`);
      const node = await loopbackProtocols(service.url, service.ca, loopMiB, 3, service.cpuSeconds);
      for (const [k, v] of Object.entries(node)) if (k !== 'ratio') metrics[`loopback_node_${k}`] = round(v);
      ratios.loopback_node_h2_vs_h1 = node.ratio;
    }

    const bigDir = join(dir, 'big');
    const smallDir = join(dir, 'small');
    mkdirSync(bigDir);
    mkdirSync(smallDir);
    const big = [diskFile(bigDir, 'big.bin', randomBytes(BIG_MIB * MiB, 7))];
    const small = Array.from({ length: SMALL_FILES }, (_, i) =>
      diskFile(smallDir, `small-${String(i).padStart(3, '0')}.bin`, randomBytes(SMALL_SIZE, 1000 + i)),
    );
    const loop = loopMiB > 0 ? [diskFile(dir, 'loopback.bin', randomBytes(loopMiB * MiB, 11))] : [];
    const peerScript = await buildPeerScript();

    for (const protocol of protocols) {
      const args = [...CHROMIUM_ARGS, '--ignore-certificate-errors', ...(protocol === 'h1' ? ['--disable-http2'] : [])];
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
      try {
        if (loopMiB > 0) console.error(`wan: ${protocol} on loopback, ${loopMiB} MiB from disk…`);
        for (const [name, who] of loopMiB > 0
          ? ([
              ['rawWhole', { kind: 'rawWhole' }],
              ['kitWhole', { kind: 'kit', options: {} }],
            ] as [string, Uploader][])
          : []) {
          const f = await runCase(
            { browser, pageUrl: pages.url, service, link: undefined, url: service.url, rttMs: 0, peerScript },
            loop,
            who,
          );
          metrics[`loopback_${protocol}_${name}_s`] = round(f.seconds);
        }
        if (loopMiB > 0)
          ratios[`loopback_${protocol}_kit_vs_raw`] =
            Number(metrics[`loopback_${protocol}_kitWhole_s`]) / Number(metrics[`loopback_${protocol}_rawWhole_s`]);
        for (const [rtt, mbit] of links) {
          const link = await startLink({
            upstream: `127.0.0.1:${service.port}`,
            rttMs: rtt,
            upMbit: mbit,
            downMbit: mbit,
          });
          const tusLink = await startLink({
            upstream: `127.0.0.1:${service.tusPort}`,
            rttMs: rtt,
            upMbit: mbit,
            downMbit: mbit,
          });
          try {
            const given = process.env.BENCH_WAN_CPU_THROTTLE;
            const runs = cases(big, small)
              .filter(([n]) => only.test(n))
              .map(([n, w, f]) => [n, w, f, Number(given ?? 1)] as const);
            // Issue 32's weak CPUs, in every run that does not choose a rate: the page 4× slower, the kit's one big file
            // and its 400 small ones, on the 100 ms / 40 Mbit/s link over HTTP/2.
            if (given === undefined && protocol === 'h2' && rtt === 100 && mbit === 40)
              runs.push(
                ...runs.filter(([n]) => /^kit(Whole|Small)$/.test(n)).map(([n, w, f]) => [n, w, f, 4] as const),
              );
            for (const [name, who, files, rate] of runs) {
              const bytes = files.reduce((sum, f) => sum + f.size, 0);
              const limit = (bytes * 8) / (mbit * 1e6) + (files.length === 1 ? 2 : 1) * (rtt / 1000);
              const setup: CaseSetup =
                who.kind === 'peer'
                  ? {
                      browser,
                      pageUrl: pages.url,
                      service,
                      link: tusLink,
                      url: `https://127.0.0.1:${tusLink.port}${TUS_PATH}`,
                      rttMs: rtt,
                      peerScript,
                      cpuRate: rate,
                    }
                  : {
                      browser,
                      pageUrl: pages.url,
                      service,
                      link,
                      url: `https://127.0.0.1:${link.port}`,
                      rttMs: rtt,
                      peerScript,
                      cpuRate: rate,
                    };
              const f: CaseFigures = await runCase(setup, files, who);
              const tag = `${rtt}ms_${mbit}Mbit_${protocol}_${name}${rate > 1 ? `_cpu${rate}x` : ''}`;
              ratios[tag] = f.seconds / limit;
              metrics[`${tag}_s`] = round(f.seconds);
              metrics[`${tag}_vs_limit`] = round(f.seconds / limit);
              metrics[`${tag}_requestsPerFile`] = round(f.requests / files.length, 2);
              metrics[`${tag}_requests`] = f.byMethod;
              metrics[`${tag}_httpVersions`] = f.httpVersions;
              metrics[`${tag}_connections`] = f.connections;
              metrics[`${tag}_linkIdle_s`] = round(f.linkIdleSeconds);
              metrics[`${tag}_idleGapsOverHalfRtt`] = `${f.idleGaps} (${round(f.idleGapSeconds)} s)`;
              console.error(
                `wan: ${tag}: ${round(f.seconds)} s = ${round(f.seconds / limit)} × limit ${round(limit)} s; ${f.byMethod}; ${f.httpVersions}; ${f.connections} connections; idle ${round(f.linkIdleSeconds)} s, gaps ${f.idleGaps} (${round(f.idleGapSeconds)} s)`,
              );
            }
          } finally {
            await link.close();
            await tusLink.close();
          }
        }
      } finally {
        await browser.close();
      }
    }
    metrics.loadavgAfter = loadavg()
      .map((x) => round(x, 2))
      .join(' ');
    metrics.measured_s = round((performance.now() - began) / 1000, 0);
    return { metrics, ratios };
  } finally {
    await pages.stop();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the WAN benchmark (under the Chromium lock, in a child process). */
export default async function wanBench(): Promise<BenchResult> {
  const { metrics, ratios } = runLocked<Figures>('wan.bench.ts', [], 1_200_000);
  const targets: Record<string, BenchTarget> = {};
  const target = (name: string, value: number | undefined, limit: number, text: string) => {
    if (value !== undefined) targets[name] = { value: round(value), target: text, pass: value <= limit };
  };
  for (const key of Object.keys(ratios).filter((k) => k.startsWith('link_') && k.endsWith('_put')))
    target(`${key}_vs_limit`, ratios[key], 1.05, '≤ 1.05 (the harness)');
  target('loopback_node_h2_vs_h1', ratios.loopback_node_h2_vs_h1, 1.1, '≤ 1.10');
  for (const key of Object.keys(ratios).filter((k) => k.endsWith('_node_h2_vs_h1') && k.startsWith('link_')))
    target(key, ratios[key], 1.1, '≤ 1.10');
  for (const l of Object.keys(ratios).filter((k) => /_h2_kit(Whole|Adaptive)$/.test(k) || /_h1_kitWhole$/.test(k)))
    target(l, ratios[l], 1.05, '≤ 1.05 × limit');
  // The CPU 4× slower (BENCH_WAN_CPU_THROTTLE): the link must still decide (issue 32).
  for (const l of Object.keys(ratios).filter((k) => /_kitWhole_cpu\d+x$/.test(k)))
    target(l, ratios[l], 1.1, '≤ 1.10 × limit');
  for (const l of Object.keys(ratios).filter((k) => /_kitSmall_cpu\d+x$/.test(k)))
    target(l, ratios[l], 1.3, '≤ 1.30 × limit');
  for (const l of Object.keys(ratios).filter((k) => k.endsWith('_h2_kitSmall')))
    target(l, ratios[l], 1.3, '≤ 1.30 × limit');
  for (const l of Object.keys(ratios).filter((k) => k.endsWith('_h1_kitSmall'))) {
    const raw = ratios[l.replace('kitSmall', 'rawSmall6')];
    if (raw !== undefined)
      target(`${l}_vs_rawSmall6`, ratios[l] / raw, 1.1, '≤ 1.10 × the raw client with 6 in flight');
  }
  return { name: 'wan', metrics, targets };
}

if (
  process.argv.includes('--run') &&
  process.argv[1] &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(JSON.stringify(await measure()));
}
