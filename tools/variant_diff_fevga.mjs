// bgboard's driver for tools/variant_diff.py: runs another project's Fevga engine (its
// `finalPositions`, given by path; that code is not part of bgboard) on the boards read
// from stdin, one JSON object a line:
//   {"mine": [25 counts, index 1..24 = own points, 0 = borne off], "opp": [...], "dice": [a, b]}
// and writes, one JSON array a line, every resulting position it allows:
//   [{"mine": [25 counts, 0 = borne off], "steps": [[from, to, die], ...]}, ...]
// Both sides count their own points 24 -> 1, as bgboard's Board does.
//
//   node tools/variant_diff_fevga.mjs PATH/TO/src/engine.js < boards.jsonl
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const engine = await import(pathToFileURL(resolve(process.argv[2])).href);

function view(side) {
  const points = new Int8Array(25);
  for (let r = 1; r <= 24; r++) points[r] = side[r];
  return { points, off: side[0] };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const row = JSON.parse(line);
  const me = view(row.mine), them = view(row.opp);
  const v = { mine: me.points, opp: them.points, myOff: me.off, oppOff: them.off };
  const found = engine.finalPositions(v, engine.expandDice(row.dice));
  const out = found.map((leaf) => ({
    mine: [leaf.myOff, ...Array.from(leaf.mine).slice(1, 25)],
    steps: leaf.steps.map((s) => [s.r, s.t, s.d]),
  }));
  process.stdout.write(JSON.stringify(out) + '\n');
}
