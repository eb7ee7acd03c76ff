// Code generated from lsp/command by `go test ./lsp/command -update`. DO NOT EDIT.

export const commands = {
  fuzz: { name: "fuzzbox.fuzz", title: "fuzz" },
  stop: { name: "fuzzbox.stop", title: "stop" },
  runSeeds: { name: "fuzzbox.runSeeds", title: "run seeds" },
  openReproducer: { name: "fuzzbox.openReproducer", title: "open reproducer" },
  rerunEntry: { name: "fuzzbox.rerunEntry", title: "rerun this input" },
  showEntry: { name: "fuzzbox.showEntry", title: "show values" },
} as const;

export interface FuzzArgs {
  uri: string;
  name: string;
}

export interface EntryArgs {
  uri: string;
}
