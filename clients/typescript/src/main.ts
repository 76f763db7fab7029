// A program written against the client generated from openapi/openapi.json, as two integrators would
// write theirs: tournament software (submit, retry with the same Idempotency-Key, correct with
// If-Match, withdraw, restore, read a 422's pointers) and a website (a list's ratings page by page,
// a player's history and changes, search, a calculator, a what-if). Every answer is validated
// against the contract (src/validate.ts). Usage: node dist/main.js BASE_URL API_KEY CONTRACT_JSON
// Prints one JSON line: the checks made and the answers validated; exits 1 when one failed.
import createClient from "openapi-fetch";

import type { components, paths } from "./contract.js";
import { ContractValidator } from "./validate.js";

type TournamentIn = components["schemas"]["TournamentIn"];
type TournamentSubmitted = components["schemas"]["TournamentSubmitted"];
type Problem = components["schemas"]["Problem"];
type RatingRowRead = components["schemas"]["RatingRowRead"];

const [baseUrl, apiKey, contractPath] = process.argv.slice(2);
if (baseUrl === undefined || apiKey === undefined || contractPath === undefined) {
  console.error("usage: node dist/main.js BASE_URL API_KEY CONTRACT_JSON");
  process.exit(2);
}

const contract = new ContractValidator(contractPath);
const checks: string[] = [];

class CheckFailed extends Error {}

function expect(condition: boolean, what: string, seen?: unknown): asserts condition {
  if (!condition) throw new CheckFailed(`${what}${seen === undefined ? "" : `: ${JSON.stringify(seen)}`}`);
  checks.push(what);
}

// The tournament software holds a key; the website reads without one.
const software = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
const website = createClient<paths>({ baseUrl });
software.use(contract.middleware());
website.use(contract.middleware());

// T0017 of the Chinese results (tests/data/renju-cn-2009-2019): what a tournament program sends,
// nothing but the fields it knows, every default left to the service.
const tournament: TournamentIn = {
  id: "T0017",
  name: "Qualification to Chinese National Network Mind Sports Games 2016",
  category: "renju",
  rule: "RIF",
  start: "2017-04-08",
  end: "2017-04-09",
  players: [{ id: "498" }, { id: "503" }, { id: "1003" }, { id: "1193" }, { id: "3578", name: "Wenhui", surname: "Ma" }],
  games: [
    { id: "G00865", round: "1", black: "503", white: "3578", result: "B" },
    { id: "G00866", round: "1", black: "1193", white: "1003", result: "D" },
    { id: "G00867", round: "2", black: "498", white: "503", result: "B" },
    { id: "G00868", round: "2", black: "3578", white: "1193", result: "W" },
    { id: "G00869", round: "3", black: "1193", white: "498", result: "B" },
    { id: "G00870", round: "3", black: "1003", white: "3578", result: "B" },
    { id: "G00871", round: "4", black: "498", white: "1003", result: "W" },
    { id: "G00872", round: "4", black: "503", white: "1193", result: "W" },
    { id: "G00873", round: "5", black: "3578", white: "498", result: "B" },
    { id: "G00874", round: "5", black: "1003", white: "503", result: "W" },
  ],
};

function etagOf(response: Response, what: string): string {
  const etag = response.headers.get("ETag");
  expect(etag !== null && /^"v\d+"$/.test(etag), `${what} carries the tournament's version as an ETag`, etag);
  return etag;
}

async function waitForJob(jobId: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { data, error } = await website.GET("/v1/jobs/{job_id}", { params: { path: { job_id: jobId }, query: { wait: 30 } } });
    expect(data !== undefined, `job ${jobId} is read`, error);
    if (data.status === "succeeded" || data.status === "failed" || Date.now() > deadline) {
      expect(data.status === "succeeded", `job ${jobId} succeeds`, data);
      return;
    }
  }
}

function lastJob(answer: TournamentSubmitted, listId: string): number | null {
  return answer.lists.find((rating_list) => rating_list.id === listId)?.job_id ?? null;
}

async function tournamentSoftware(): Promise<void> {
  // Submit, then send the same request again with the same key: the first answer comes back.
  const idempotency = { "idempotency-key": "ts-client-T0017" };
  const first = await software.POST("/v1/tournaments", { body: tournament, params: { header: idempotency } });
  expect(first.response.status === 201 && first.data !== undefined, "a submission is a 201", first.error);
  expect(first.data.id === "T0017" && first.data.games.length === 10 && first.data.games_count === 10, "the 201 reads the tournament back");
  expect(first.response.headers.get("Location") === "/v1/tournaments/T0017", "the 201's Location names it");
  const whr = first.data.lists.find((rating_list) => rating_list.id === "rif-whr");
  expect(whr !== undefined && whr.rated && typeof whr.job_id === "number", "the 201 says rif-whr rates it and queued a recompute", whr);
  let version = etagOf(first.response, "the 201");

  const retry = await software.POST("/v1/tournaments", { body: tournament, params: { header: idempotency } });
  expect(retry.response.status === 201 && JSON.stringify(retry.data) === JSON.stringify(first.data), "a retry with the same Idempotency-Key gets the first answer");
  expect(retry.response.headers.get("ETag") === version, "the replayed 201 carries the same version");

  // Correct one result with the version the 201 gave (no read in between); a stale one is a 412.
  const corrected: TournamentIn = {
    ...tournament,
    games: tournament.games.map((game) => (game.id === "G00866" ? { ...game, result: "B" } : game)),
  };
  const put = await software.PUT("/v1/tournaments/{tournament_id}", {
    params: { path: { tournament_id: "T0017" }, header: { "if-match": version } },
    body: corrected,
  });
  expect(put.data !== undefined, "a correction with If-Match is made", put.error);
  expect(put.data.games.find((game) => game.id === "G00866")?.result === "B", "the correction's answer has the corrected result");
  const stale = version;
  version = etagOf(put.response, "the correction");
  expect(version !== stale, "the correction moves the version");
  const refused = await software.PUT("/v1/tournaments/{tournament_id}", {
    params: { path: { tournament_id: "T0017" }, header: { "if-match": stale } },
    body: tournament,
  });
  expect(refused.response.status === 412 && refused.error?.status === 412, "a correction against a stale version is a 412", refused.error);

  // Withdraw and restore it, each against the version the previous answer gave.
  const withdrawn = await software.DELETE("/v1/tournaments/{tournament_id}", {
    params: { path: { tournament_id: "T0017" }, query: { reason: "entered twice" }, header: { "if-match": version } },
  });
  expect(withdrawn.data !== undefined && withdrawn.data.withdrawn_reason === "entered twice", "a withdrawal keeps its reason", withdrawn.error);
  version = etagOf(withdrawn.response, "the withdrawal");
  const read = await website.GET("/v1/tournaments/{tournament_id}", { params: { path: { tournament_id: "T0017" } } });
  expect(read.data !== undefined && read.data.withdrawn_at !== null, "a withdrawn tournament stays readable", read.error);
  expect(read.response.headers.get("ETag") === version, "its read carries the version the withdrawal gave");
  const restored = await software.POST("/v1/tournaments/{tournament_id}/restore", {
    params: { path: { tournament_id: "T0017" }, header: { "if-match": version } },
  });
  expect(restored.data !== undefined && restored.data.withdrawn_at === null, "a restore puts it back", restored.error);
  etagOf(restored.response, "the restore");

  // A body with two errors: one 422 names both, each with its pointer.
  const broken: TournamentIn = {
    ...tournament,
    id: "T0017-broken",
    games: tournament.games.map((game, index) =>
      index === 0 ? { ...game, white: "no-such-player" } : index === 3 ? { ...game, black: "nobody" } : game,
    ),
  };
  const rejected = await software.POST("/v1/tournaments", { body: broken });
  expect(rejected.response.status === 422 && rejected.error !== undefined, "a body with unknown players is a 422", rejected.data);
  const problem: Problem = rejected.error;
  const pointers = (problem.errors ?? []).map((error) => error.pointer);
  expect(pointers.includes("/games/0/white") && pointers.includes("/games/3/black"), "the 422 points at both games", pointers);
  expect(rejected.response.headers.get("Content-Type")?.startsWith("application/problem+json") === true, "a problem is application/problem+json");

  // The list's recompute after the last change: the website reads its result.
  const job = lastJob(restored.data, "rif-whr");
  expect(job !== null, "the restore queued rif-whr's recompute", restored.data.lists);
  await waitForJob(job);
}

async function site(): Promise<void> {
  const lists = await website.GET("/v1/rating-lists");
  expect(lists.data !== undefined && lists.data.some((rating_list) => rating_list.id === "rif-whr"), "the lists include rif-whr", lists.error);

  // The whole list two rows a page, best first, ranks running on across pages.
  const rows: RatingRowRead[] = [];
  let total = Number.POSITIVE_INFINITY;
  let etag: string | null = null;
  for (let offset = 0; offset < total; offset += 2) {
    const page = await website.GET("/v1/rating-lists/{list_id}/ratings", {
      params: { path: { list_id: "rif-whr" }, query: { status: "all", limit: 2, offset } },
    });
    expect(page.data !== undefined && page.data.limit === 2 && page.data.offset === offset, `a page of ratings at offset ${offset}`, page.error);
    expect(page.data.items.length <= 2, "a page holds at most its limit");
    total = page.data.total;
    rows.push(...page.data.items);
    etag ??= page.response.headers.get("ETag");
  }
  expect(total === 5 && rows.length === 5, "the pages hold the list's five players", rows.length);
  expect(rows.every((row, index) => row.rank === index + 1 || row.rank === rows[index - 1]?.rank), "ranks run on across pages");
  expect(rows.every((row, index) => index === 0 || rows[index - 1]!.rating >= row.rating), "best first");
  expect(new Set(rows.map((row) => row.player_id)).size === 5, "no player on two pages");

  // A page read again with its ETag is a 304 without a body.
  expect(etag !== null, "a page of ratings carries an ETag");
  const unchanged = await website.GET("/v1/rating-lists/{list_id}/ratings", {
    params: { path: { list_id: "rif-whr" }, query: { status: "all", limit: 2, offset: 0 }, header: { "if-none-match": etag } },
  });
  expect(unchanged.response.status === 304, "a page read with its ETag is a 304", unchanged.response.status);

  // A limit beyond the bound: the 422 names the query parameter.
  const tooMany = await website.GET("/v1/rating-lists/{list_id}/ratings", {
    params: { path: { list_id: "rif-whr" }, query: { limit: 1000 } },
  });
  expect(tooMany.response.status === 422 && (tooMany.error?.errors ?? []).some((error) => error.pointer === "query:limit"), "limit=1000 is a 422 naming query:limit", tooMany.error);

  const history = await website.GET("/v1/players/{player_id}/history", { params: { path: { player_id: "3578" }, query: { list: "rif-whr" } } });
  expect(history.data !== undefined && history.data.points.length >= 1, "a player's history has points", history.error);
  const point = history.data.points[history.data.points.length - 1]!;
  expect(point.tournament_ids.includes("T0017"), "his history names the tournament", point);

  // What moved his rating between the list's first snapshot (the results as submitted) and the
  // current one (after the correction): the list has no publication to compare with by default.
  const snapshots = await website.GET("/v1/rating-lists/{list_id}/snapshots", { params: { path: { list_id: "rif-whr" } } });
  expect(snapshots.data !== undefined && snapshots.data.items.length >= 2, "the list keeps its snapshots", snapshots.error);
  const first = Math.min(...snapshots.data.items.map((snapshot) => snapshot.id));
  const changes = await website.GET("/v1/players/{player_id}/changes", {
    params: { path: { player_id: "1193" }, query: { list: "rif-whr", from: `snapshot:${first}` } },
  });
  expect(changes.data !== undefined && changes.data.from.snapshot_id === first, "a player's changes since a snapshot are read", changes.error);
  expect(changes.data.tournaments.some((move) => move.tournament_id === "T0017"), "they name the corrected tournament", changes.data.tournaments);
  const parts = (changes.data.past_revised ?? 0) + (changes.data.new_games ?? 0);
  expect(changes.data.change !== null && Math.abs(changes.data.change - parts) < 1e-6, "the change is the sum of its parts", changes.data);

  const tournamentPage = await website.GET("/v1/tournaments/{tournament_id}", { params: { path: { tournament_id: "T0017" } } });
  expect(tournamentPage.data !== undefined && tournamentPage.data.rating_changes.length > 0, "the tournament's rating changes are read", tournamentPage.error);

  const found = await website.GET("/v1/players", { params: { query: { q: "wenhui" } } });
  expect(found.data !== undefined && found.data.items.some((hit) => hit.id === "3578"), "search finds Wenhui Ma", found.error);
  const hit = found.data.items.find((item) => item.id === "3578")!;
  expect(hit.ratings.some((rating) => rating.list_id === "rif-whr"), "a search hit carries his ratings", hit.ratings);

  const game = await website.POST("/v1/calc/rif-elo/game", { body: { rating: 2300, opponent_rating: 2200, score: 1 } });
  expect(game.data !== undefined && game.data.change === 12, "the RIF Elo calculator answers +12 for a win against 100 points less", game.data ?? game.error);

  // What if Wenhui Ma had played two more games: nothing stored.
  const whatIf: TournamentIn = {
    id: "what-if-2017",
    name: "A club evening",
    category: "renju",
    rule: "RIF",
    start: "2017-05-01",
    end: "2017-05-01",
    players: [{ id: "3578" }, { id: "498" }],
    games: [
      { black: "3578", white: "498", result: "B" },
      { black: "498", white: "3578", result: "W" },
    ],
  };
  const answer = await website.POST("/v1/rating-lists/{list_id}/what-if", { params: { path: { list_id: "rif-whr" } }, body: whatIf });
  expect(answer.data !== undefined && answer.data.rated, "what-if rates the tournament", answer.error);
  const mine = answer.data.players.find((player) => player.player_id === "3578");
  expect(mine !== undefined && (mine.change ?? 0) > 0, "two wins raise his rating", mine);
  const after = await website.GET("/v1/tournaments/{tournament_id}", { params: { path: { tournament_id: "what-if-2017" } } });
  expect(after.response.status === 404, "what-if stores nothing", after.response.status);
}

let failure: string | null = null;
try {
  await tournamentSoftware();
  await site();
} catch (error) {
  failure = error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error);
}
const ok = failure === null && contract.violations.length === 0;
console.log(JSON.stringify({ ok, failure, violations: contract.violations, checks, exchanges: contract.exchanges }));
process.exit(ok ? 0 : 1);
