// Code generated from lsp/command by `go test ./lsp/command -update`. DO NOT EDIT.

export const commands = {
  fuzz: { name: "fuzzbox.fuzz", title: "fuzz" },
  stop: { name: "fuzzbox.stop", title: "stop" },
  runSeeds: { name: "fuzzbox.runSeeds", title: "run seeds" },
  openReproducer: { name: "fuzzbox.openReproducer", title: "open reproducer" },
  rerunEntry: { name: "fuzzbox.rerunEntry", title: "rerun this input" },
  showEntry: { name: "fuzzbox.showEntry", title: "show values" },
  tests: { name: "fuzzbox.tests", title: "list fuzz tests" },
  coverage: { name: "fuzzbox.coverage", title: "coverage of the corpus" },
  coverageGaps: { name: "fuzzbox.coverageGaps", title: "coverage gaps" },
  debugEntry: { name: "fuzzbox.debugEntry", title: "debug command line" },
  showGenerated: { name: "fuzzbox.showGenerated", title: "show the generated corpus" },
  copyGenerated: { name: "fuzzbox.copyGenerated", title: "copy to testdata" },
} as const;

// Client commands: the extension registers them.
export const clientCommands = {
  debug: { name: "fuzzbox.debug", title: "debug" },
} as const;

export const runNotification = "fuzzbox/run";
export const testsChangedNotification = "fuzzbox/testsChanged";

export const runKinds = { fuzz: "fuzz", seeds: "seeds", entry: "entry" } as const;
export const runStates = { started: "started", progress: "progress", passed: "passed", failed: "failed", stopped: "stopped", errored: "errored" } as const;

export interface FuzzArgs {
  uri: string;
  name: string;
}

export interface EntryArgs {
  uri: string;
}

export interface FolderArgs {
  uri: string;
}

export interface GeneratedArgs {
  uri: string;
  name: string;
  show: boolean;
  entry: string;
}

export interface InitOptions {
  clientCommands: string[];
}

export interface TestList {
  tests: TestInfo[];
}

export interface TestInfo {
  id: string;
  name: string;
  uri: string;
  line: number;
  entries: EntryInfo[];
  generated: GeneratedCorpus | null;
}

export interface EntryInfo {
  name: string;
  uri: string;
  error: string;
}

export interface GeneratedCorpus {
  dir: string;
  entries: EntryInfo[];
  error: string;
}

export interface RunEvent {
  test: string;
  run: string;
  entry: string;
  state: string;
  message: string;
  execs: number;
  failure: Failure | null;
}

export interface Failure {
  kind: string;
  message: string;
  stack: string;
  uri: string;
  line: number;
  frames: Frame[];
  values: string[];
  reproducer: string;
}

export interface Frame {
  func: string;
  uri: string;
  line: number;
}

export interface CoverageReport {
  percent: number;
  statements: number;
  covered: number;
  entries: number;
  files: FileCoverage[];
}

export interface FileCoverage {
  uri: string;
  blocks: Block[];
}

export interface Block {
  startLine: number;
  startCol: number;
  endLine: number;
  endCol: number;
  statements: number;
  count: number;
}

export interface Gap {
  uri: string;
  line: number;
  col: number;
  endLine: number;
  endCol: number;
  text: string;
}

export interface DebugInfo {
  dir: string;
  test: string;
  entry: string;
  args: string[];
  buildFlags: string[];
  commandLine: string;
}
