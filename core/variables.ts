/**
 * The one table of every environment variable the harness reads, with its meaning: each
 * command's --help lists its own from here (core/cli/command-spec.ts), README.md's table is
 * checked against it (test/cli/help.test.ts), and code reads a variable only by its name here
 * (`envVar`) — the configuration's through `loadConfig` (core/config.ts). A module of its own,
 * importing nothing: the precompiled `harness diff-spec` loads it without the configuration.
 */
export const ENV_VARS = {
  HARNESS_BASE_URL:
    'target deployment, e.g. https://staging.example.com; unset: the embedded reference deployment',
  HARNESS_API_KEY: 'full-access key of workspace A (required with a base URL)',
  HARNESS_READONLY_KEY: 'read-only key of workspace A (scope checks)',
  HARNESS_OTHER_WORKSPACE_KEY:
    'key of a second workspace (isolation checks; load: a few requests right after each burst, load.other-workspace)',
  HARNESS_TEAM_KEYS:
    'comma-separated keys of one Team workspace (load; two keys add the scope phase; a contract key listed here is held to 120/min)',
  HARNESS_GROWTH_KEYS:
    'comma-separated keys of one Growth workspace (load; a contract key listed here is held to 600/min)',
  HARNESS_ENTERPRISE_KEYS:
    'comma-separated keys of one Enterprise workspace (load; with HARNESS_ENTERPRISE_RATE a contract key listed here is held to it)',
  HARNESS_ENTERPRISE_RATE:
    'harness load --plan enterprise: the contracted requests per minute (else read from the headers)',
  HARNESS_ENTERPRISE_BURST:
    'harness load --plan enterprise: the contracted burst (else read from the headers)',
  HARNESS_WEBHOOK_URL: 'public base URL under which the deployment reaches the capture receiver',
  HARNESS_WEBHOOK_LISTEN: 'host:port the capture receiver binds (default 127.0.0.1:0)',
  HARNESS_WEBHOOK_ENDPOINTS: 'YAML/JSON file of the webhook endpoints set up in the dashboard',
  HARNESS_WEBHOOK_SECRET:
    'without an endpoints file: the secret of the one endpoint at HARNESS_WEBHOOK_URL',
  HARNESS_WEBHOOK_TLS_CERT:
    'PEM certificate: the receiver speaks HTTPS (with HARNESS_WEBHOOK_TLS_KEY)',
  HARNESS_WEBHOOK_TLS_KEY: 'PEM key of that certificate',
  HARNESS_WEBHOOK_RETRY_WAIT_MS:
    'how long to wait for the retry after the receiver’s 503 (default 60000)',
  HARNESS_ADMIN_TOKEN:
    'admin surface of a reference deployment (rotation, clock control, subscriptions)',
  HARNESS_FAULTS: 'faults of the embedded deployment, comma-separated',
  HARNESS_STRICT: '1: an assumption mismatch fails the gate too',
  HARNESS_READ_ONLY: '1: only checks that write nothing (production)',
  HARNESS_ALLOW_INSECURE:
    '1: allow plain HTTP to a non-loopback host, and on https:// skip certificate verification (a private CA: prefer NODE_EXTRA_CA_CERTS)',
  HARNESS_TIMEOUT_MS: 'per-request timeout (default 10000)',
  HARNESS_RUN_MAX_SECONDS:
    'time limit of the whole run (harness run --max-seconds; default: the areas’ own limits + 1 min, 18 min for a full run): the running area stops, every report is written',
  HARNESS_RESERVE:
    'requests of the key’s Remaining a run leaves for others (harness run --reserve; default 20 % of the key’s burst): pacing waits rather than spend below it',
  HARNESS_MAX_REQUESTS:
    'requests the run may send (harness run --max-requests): the fuzz shrinks first; contract tests that still do not fit are not run and listed as not run (the verdict line says the gate was partial)',
  HARNESS_FUZZ_CASES:
    'API input cases per operation of the fuzz area (harness run --fuzz-cases; the class sampler always runs whole; default 40, on a Team key the gate-sized 1: the sampler alone)',
  HARNESS_BASELINE:
    'behaviour snapshot the run is compared with (default reports/baselines/reference.snapshot.json; off to skip)',
  HARNESS_COMPAT_FAIL_ON:
    'ERR, WARN or INFO: a behaviour change at or above it fails the gate (default: reported only)',
  HARNESS_WORKERS:
    'Playwright workers of the contract suite (default 2; `harness run` on a key its budget paces, e.g. a Team key: 1; the detection matrix 4)',
  HARNESS_OUT_DIR:
    'npx playwright test alone: where the suite writes (default reports/playwright/, emptied first)',
  HARNESS_CONSOLE_TAGS:
    '1: each contract test’s check tags on the console too (harness run --tags)',
  HARNESS_RESOLVED_CONFIG:
    'set by the harness for its child processes: the 0600 file of the configuration it resolved',
  HARNESS_DEBUG: 'set: print the stack of an error that stops the command',
  HARNESS_NO_PRECOMPILE: 'set: run diff-spec through tsx instead of its cached plain-JS build',
  K6_BIN: 'the k6 binary (else k6 on PATH; else the Node engine)',
  FC_SEED: 'fast-check seed (fixed by default; printed on failure)',
} as const;

export type EnvVar = keyof typeof ENV_VARS;

/** The value of one variable of the table (the only way code outside loadConfig reads one). */
export const envVar = (name: EnvVar, env: NodeJS.ProcessEnv = process.env): string | undefined =>
  env[name] || undefined;
