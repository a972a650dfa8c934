import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface MockOAuthServer {
  url: string;
  /** Bodies of the token requests the server answered, oldest first. */
  tokenRequests: Array<Record<string, string>>;
  /**
   * Resolves once `n` token requests were reported. The report travels over the child's stdout, which can
   * arrive after the HTTP answer did, so tests wait for it rather than read the list straight away.
   */
  tokenRequestReported(match: (body: Record<string, string>) => boolean): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/** Starts oauth2-mock-server (a real OAuth 2 server) on a loopback port in a child process. */
export function startMockOAuthServer(): Promise<MockOAuthServer> {
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'oauth2-server-process.mjs')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tokenRequests: Array<Record<string, string>> = [];
  type Waiter = { match: (body: Record<string, string>) => boolean; resolve: (body: Record<string, string>) => void };
  const waiters: Waiter[] = [];
  const settle = () => {
    for (const w of [...waiters]) {
      const found = tokenRequests.find(w.match);
      if (found) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(found);
      }
    }
  };
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.on('exit', (code) => reject(new Error(`mock OAuth server exited (${code}): ${stderr}`)));
    child.stdout!.on('data', (chunk) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffered.slice(0, nl)) as { url?: string; tokenRequest?: Record<string, string> };
        buffered = buffered.slice(nl + 1);
        if (line.tokenRequest) {
          tokenRequests.push(line.tokenRequest);
          settle();
        }
        if (line.url) {
          resolve({
            url: line.url,
            tokenRequests,
            tokenRequestReported: (match) =>
              new Promise((done) => {
                waiters.push({ match, resolve: done });
                settle();
              }),
            stop: () =>
              new Promise<void>((done) => {
                child.removeAllListeners('exit');
                child.once('exit', () => done());
                child.kill('SIGTERM');
              }),
          });
        }
      }
    });
  });
}
