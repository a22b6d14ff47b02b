// A minimal client for the NDJSON adapter protocol, used by the recording and differential tools.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export async function openAdapter(argv, { cwd } = {}) {
  const child = spawn(argv[0], argv.slice(1), { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
  const rl = createInterface({ input: child.stdout });
  const waiting = [];
  rl.on('line', (line) => {
    const w = waiting.shift();
    if (w) w(JSON.parse(line));
  });
  const request = (msg) =>
    new Promise((resolve) => {
      waiting.push(resolve);
      child.stdin.write(`${JSON.stringify(msg)}\n`);
    });
  const hello = await request({ type: 'hello', protocol: 1 });
  let seq = 0;
  return {
    hello,
    async run(op, input) {
      seq += 1;
      const answer = await request({ type: 'run', seq, case: `tool/${op}/${seq}`, op, input });
      return answer.type === 'result' ? { output: answer.output } : { error: answer.error };
    },
    close() {
      child.stdin.write('{"type":"bye"}\n');
      child.stdin.end();
      return new Promise((resolve) => child.on('exit', resolve));
    },
  };
}
