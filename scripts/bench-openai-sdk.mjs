// The OpenAI Node SDK side of scripts/bench-openai-sdk.sh: N chat completions against one endpoint with
// exactly C in flight (a promise pool of C workers), timed from the first request to the last answer.
//   node scripts/bench-openai-sdk.mjs --modules DIR/node_modules --base-url URL [--requests N]
//        [--concurrency C] [--json]
//   node scripts/bench-openai-sdk.mjs --modules DIR/node_modules --versions   (Node and SDK versions)
//   node scripts/bench-openai-sdk.mjs --stats URL                             (a fake-llm-server's /fake/stats)
// The `openai` package is loaded from --modules (an npm --prefix folder outside the repo), not from the repo.
// With --json it prints one JSON line: requests, concurrency, wall_s, rps, errors, p50_ms, p99_ms, first_error.
// Exit status: 0 when every request succeeded, 1 when some failed, 2 on bad arguments.
//
// Connections: SDK v5+ uses the runtime's fetch (undici in Node ≥ 18), whose global dispatcher keeps
// connections alive and has no per-origin connection cap, so C requests in flight use C reused sockets and
// no agent needs passing (v4's `httpAgent` option no longer exists). Older SDKs (v4, node-fetch) get an
// http.Agent with keepAlive and maxSockets ≥ C.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

function parseArgs(argv) {
    const opts = { requests: 4000, concurrency: 32, json: false, versions: false };
    for (let i = 0; i < argv.length; ++i) {
        const a = argv[i];
        const value = () => {
            if (i + 1 >= argv.length) usage(`${a} needs a value`);
            return argv[++i];
        };
        switch (a) {
            case '--base-url': opts.baseUrl = value(); break;
            case '--requests': opts.requests = Number(value()); break;
            case '--concurrency': opts.concurrency = Number(value()); break;
            case '--modules': opts.modules = value(); break;
            case '--stats': opts.stats = value(); break;
            case '--json': opts.json = true; break;
            case '--versions': opts.versions = true; break;
            case '-h': case '--help': usage(); break;
            default: usage(`unknown argument ${a}`);
        }
    }
    return opts;
}

function usage(message) {
    if (message) console.error(`bench-openai-sdk.mjs: ${message}`);
    console.error('usage: node bench-openai-sdk.mjs --modules DIR/node_modules --base-url URL [--requests N] '
        + '[--concurrency C] [--json] | --modules DIR/node_modules --versions | --stats URL');
    process.exit(message ? 2 : 0);
}

function percentile(sorted, p) {
    if (sorted.length === 0) return null;
    const rank = Math.ceil(p * sorted.length);
    return sorted[Math.min(sorted.length - 1, rank === 0 ? 0 : rank - 1)];
}

function loadSdk(modules) {
    if (!modules) usage('--modules is required (the node_modules folder holding openai)');
    const require = createRequire(path.join(path.resolve(modules), '..', 'package.json'));
    const OpenAI = require('openai').default ?? require('openai');
    // Not require('openai/package.json'): the package's "exports" does not list it.
    const manifest = path.join(path.resolve(modules), 'openai', 'package.json');
    const version = JSON.parse(readFileSync(manifest, 'utf8')).version;
    return { OpenAI, version };
}

async function main() {
    const opts = parseArgs(process.argv.slice(2));

    if (opts.stats) { // the server-side counters, so the shell script can check what each client sent
        const res = await fetch(new URL('/fake/stats', opts.stats));
        console.log(JSON.stringify(await res.json()));
        return 0;
    }

    const { OpenAI, version } = loadSdk(opts.modules);
    if (opts.versions) {
        console.log(`node ${process.version} openai ${version}`);
        return 0;
    }
    const n = opts.requests;
    const c = opts.concurrency;
    if (!opts.baseUrl) usage('--base-url is required');
    if (!Number.isInteger(n) || n <= 0 || !Number.isInteger(c) || c <= 0)
        usage('--requests and --concurrency must be positive integers');

    const options = { baseURL: opts.baseUrl, apiKey: 'x', maxRetries: 0, timeout: 60_000 };
    if (Number(version.split('.')[0]) < 5) // node-fetch era: its default agent would not be tuned for C sockets
        options.httpAgent = new http.Agent({ keepAlive: true, maxSockets: Math.max(c, 256) });
    const client = new OpenAI(options);

    const latencies = [];
    let errors = 0;
    let firstError = null;
    let next = 0;
    const one = async (i) => {
        const t0 = performance.now();
        try {
            const completion = await client.chat.completions.create({
                model: 'synthetic',
                messages: [{
                    role: 'user',
                    // The same shape as `rubric bench judge`'s prompts: small, and distinct per request.
                    content: `Rate the coherence of summary #${i} from 1 to 5. Summary: the committee met and `
                        + 'agreed on the budget. Answer with the number only.',
                }],
                max_tokens: 5,
                temperature: 0,
            });
            if (typeof completion?.choices?.[0]?.message?.content !== 'string')
                throw new Error('the answer has no message content');
            latencies.push(performance.now() - t0);
        } catch (e) {
            if (errors++ === 0) firstError = String(e?.message ?? e);
        }
    };
    const worker = async () => {
        while (next < n)
            await one(next++);
    };

    const start = performance.now();
    await Promise.all(Array.from({ length: Math.min(c, n) }, worker));
    const wallS = (performance.now() - start) / 1000;

    latencies.sort((a, b) => a - b);
    const result = {
        requests: n,
        concurrency: c,
        wall_s: wallS,
        rps: n / wallS,
        errors,
        p50_ms: percentile(latencies, 0.5),
        p99_ms: percentile(latencies, 0.99),
        first_error: firstError,
        node: process.version,
        openai: version,
    };
    if (opts.json) {
        console.log(JSON.stringify(result));
    } else {
        console.log(`${n} requests, concurrency ${c}: ${wallS.toFixed(2)} s, ${result.rps.toFixed(1)} req/s, `
            + `errors ${errors}; latency p50 ${result.p50_ms?.toFixed(1)} ms, p99 ${result.p99_ms?.toFixed(1)} ms`
            + ` (node ${process.version}, openai ${version})`);
        if (firstError) console.log(`first error: ${firstError}`);
    }
    return errors === 0 ? 0 : 1;
}

process.exitCode = await main();
