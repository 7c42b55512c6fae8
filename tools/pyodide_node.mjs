#!/usr/bin/env node
// Run Python under the real Pyodide interpreter in Node, with the engine wheel installed: the way to check
// that the engine behaves the same in CPython and in the browser's Python, without a browser.
//
//   node tools/pyodide_node.mjs [options] FILE [ARGS...]        like `python FILE ARGS...`
//   node tools/pyodide_node.mjs [options] -m MODULE [ARGS...]   like `python -m MODULE ARGS...`
//   node tools/pyodide_node.mjs [options] -c CODE [ARGS...]     like `python -c CODE ARGS...`
//
// Options:
//   --dist DIR          the built site whose pyodide/ and wheel are used (default: dist/ of this repo;
//                       run `make build` first)
//   --install HOW       how the engine wheel is installed: `unpack` (pyodide.unpackArchive, as the web
//                       worker does; the default), `micropip` (micropip.install of a file:/// URL, deps=False),
//                       or `none`
//   --wheel PATH        install this wheel instead of the one named in DIST/build-info.json (with the
//                       archive of its later modules, build-info.json "later")
//   --no-snapshot       start Python afresh (about 0.5 s) instead of restoring the memory snapshot that
//                       the first run saved in .cache/pyodide-VERSION-STDLIB-node.snapshot (about 0.3 s;
//                       STDLIB: the start of the standard library zip's sha256, whose directory the snapshot
//                       holds)
//   --verbose           timings and Pyodide's own messages on stderr
//
// The current folder is mounted at the same path inside Pyodide and made the working directory, so relative
// paths behave as under CPython; sys.path[0] is the script's folder (FILE) or the current folder (-m, -c).
// Python's stdout and stderr go to Node's. The exit status is Python's: 0, the code of a SystemExit, or 1
// after an uncaught exception (its traceback on stderr). Nothing is fetched from the network: every file
// comes from DIST, and loading a package that DIST does not ship fails.
//
// From a pytest test (the parity tests do this):
//   subprocess.run(["node", "tools/pyodide_node.mjs", "tests/some_script.py", "--flag"],
//                  capture_output=True, text=True, cwd=REPO_ROOT, check=True).stdout
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const USAGE = "usage: node tools/pyodide_node.mjs [--dist DIR] [--install unpack|micropip|none] [--wheel PATH] "
  + "[--no-snapshot] [--verbose] (FILE | -m MODULE | -c CODE) [ARGS...]";

// The Python side (shared with tools/pyodide_browser.py): fixed code; values arrive as arguments.
const RUNNER = readFileSync(path.join(ROOT, "tools", "pyodide_runner.py"), "utf8");

function fail(message) {
  process.stderr.write(`pyodide_node: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const options = { dist: path.join(ROOT, "dist"), install: "unpack", wheel: null, snapshot: true, verbose: false };
  let i = 0;
  for (; i < argv.length && argv[i].startsWith("--"); i++) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (name === "--verbose") options.verbose = true;
    else if (name === "--no-snapshot") options.snapshot = false;
    else if (["--dist", "--install", "--wheel"].includes(name) && value !== undefined) {
      options[name.slice(2)] = value;
      i++;
    } else fail(`unknown or incomplete option ${name}\n${USAGE}`);
  }
  if (!["unpack", "micropip", "none"].includes(options.install)) fail(`--install ${options.install}?\n${USAGE}`);
  const rest = argv.slice(i);
  if (rest[0] === "-m" || rest[0] === "-c") {
    if (rest.length < 2) fail(USAGE);
    const kind = rest[0] === "-m" ? "module" : "code";
    return { options, kind, target: rest[1], argv: [rest[0], ...rest.slice(2)] };
  }
  if (rest.length < 1) fail(USAGE);
  const file = path.resolve(rest[0]);
  if (!existsSync(file)) fail(`no such file: ${rest[0]}`);
  return { options, kind: "file", target: file, argv: [file, ...rest.slice(1)] };
}

// The engine wheel, and the archive of its later modules (build-info.json "later") unless --wheel names one.
function engineWheel(options) {
  if (options.wheel) return { wheel: path.resolve(options.wheel), later: null };
  const infoPath = path.join(options.dist, "build-info.json");
  if (!existsSync(infoPath)) fail(`${infoPath} is missing: run \`make build\` first (or pass --wheel)`);
  const info = JSON.parse(readFileSync(infoPath, "utf8"));
  return { wheel: path.join(options.dist, info.wheel.url), later: info.later ? path.join(options.dist, info.later.url) : null };
}

// Mount host folder `dir` at the same path inside Pyodide (unless an enclosing folder already is).
function mountSamePath(pyodide, dir, mounted) {
  if (dir === path.parse(dir).root) fail(`cannot mount the root folder ${dir}: run from a project folder`);
  if (mounted.some((m) => dir === m || dir.startsWith(m + path.sep))) return;
  pyodide.FS.mkdirTree(dir);
  pyodide.mountNodeFS(dir, dir);
  mounted.push(dir);
}

// Pyodide restored from the memory snapshot at `snapshot` if there is a usable one; else started afresh,
// and its snapshot saved there (written aside, then renamed: concurrent runs never read half a file).
async function startPython(loadPyodide, config, snapshot, log) {
  if (snapshot && existsSync(snapshot)) {
    try {
      const pyodide = await loadPyodide({ ...config, _loadSnapshot: new Uint8Array(readFileSync(snapshot)) });
      pyodide.runPython("import random; random.seed()"); // the snapshot holds the generator's state
      log(`restored the memory snapshot ${snapshot}`);
      return pyodide;
    } catch (error) {
      log(`unusable memory snapshot (${error.message}): starting afresh`);
      rmSync(snapshot, { force: true });
    }
  }
  const pyodide = await loadPyodide({ ...config, _makeSnapshot: snapshot !== null });
  if (snapshot) {
    const aside = `${snapshot}.${process.pid}.tmp`;
    mkdirSync(path.dirname(snapshot), { recursive: true });
    writeFileSync(aside, pyodide.makeMemorySnapshot());
    renameSync(aside, snapshot);
    log(`saved a memory snapshot in ${snapshot}`);
    for (const name of readdirSync(path.dirname(snapshot))) { // those of other builds: some 30 MB each
      if (/^pyodide-.*-node\.snapshot$/.test(name) && name !== path.basename(snapshot)) {
        rmSync(path.join(path.dirname(snapshot), name), { force: true });
      }
    }
  }
  return pyodide;
}

async function main() {
  const { options, kind, target, argv } = parseArgs(process.argv.slice(2));
  const log = options.verbose ? (m) => process.stderr.write(`pyodide_node: ${m}\n`) : () => {};
  const current = path.join(options.dist, "js", "pyodide-current.mjs"); // names the versioned pyodide/ folder
  if (!existsSync(current)) fail(`${current} is missing: run \`make build\``);
  // stdLibURL: the site's precompiled standard library (undefined while the build makes it: Pyodide's own)
  const { indexURL, stdLibURL } = await import(pathToFileURL(current).href);
  const pyodideDir = fileURLToPath(indexURL).replace(/[\\/]$/, "");
  const started = performance.now();
  const elapsed = () => `${Math.round(performance.now() - started)} ms`;

  const { loadPyodide, version } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const stdlibPath = stdLibURL ? fileURLToPath(stdLibURL) : path.join(pyodideDir, "python_stdlib.zip");
  const config = {
    indexURL: pyodideDir + path.sep,
    stdLibURL: stdlibPath,
    stdout: (line) => log(`[pyodide] ${line}`), // until the program runs: keep stdout for the program
    stderr: (line) => process.stderr.write(`${line}\n`),
  };
  // A snapshot holds zipimport's directory of the standard library: it is only good for the same bytes.
  const stdlibHash = () => createHash("sha256").update(readFileSync(stdlibPath)).digest("hex").slice(0, 12);
  const snapshot = options.snapshot
    ? path.join(ROOT, ".cache", `pyodide-${version}-${stdlibHash()}-node.snapshot`) : null;
  const pyodide = await startPython(loadPyodide, config, snapshot, log);
  log(`Pyodide ${pyodide.version} ready after ${elapsed()}`);

  if (options.install !== "none") {
    const { wheel, later } = engineWheel(options);
    if (!existsSync(wheel)) fail(`no such wheel: ${wheel}`);
    if (options.install === "unpack") {
      // Into site-packages (the default is the working directory, which only works while it is on sys.path).
      const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
      pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: sitePackages });
      pyodide.pyimport("importlib").invalidate_caches(); // site-packages may be listed already
    } else {
      await pyodide.loadPackage("micropip", { messageCallback: log, errorCallback: log });
      const micropip = pyodide.pyimport("micropip");
      await micropip.install.callKwargs(pathToFileURL(wheel).href, { deps: false });
      micropip.destroy();
    }
    if (later) { // its coinche/ beside the wheel's, in site-packages
      const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
      pyodide.unpackArchive(new Uint8Array(readFileSync(later)), "zip", { extractDir: sitePackages });
      pyodide.pyimport("importlib").invalidate_caches();
    }
    log(`installed ${path.basename(wheel)} (${options.install}) after ${elapsed()}`);
  }

  const cwd = process.cwd();
  const mounted = [];
  mountSamePath(pyodide, cwd, mounted);
  if (kind === "file") mountSamePath(pyodide, path.dirname(target), mounted);
  // Pyodide reuses `bytes` for its next write, and Node keeps (does not copy) what a full pipe cannot take
  // yet: hand Node a copy, or a slow reader gets later text in place of earlier lines.
  const write = (stream) => ({ write: (bytes) => (stream.write(Buffer.from(bytes)), bytes.length) });
  pyodide.setStdout(write(process.stdout));
  pyodide.setStderr(write(process.stderr));

  const run = pyodide.runPython(RUNNER);
  const status = run(kind, target, argv, cwd);
  run.destroy();
  log(`exit ${status} after ${elapsed()}`);
  process.exitCode = status;
}

main().catch((error) => {
  process.stderr.write(`pyodide_node: ${error?.stack ?? error}\n`);
  process.exit(1);
});
