// The games of the family a table can play — two-hand 1001 (R1–R7, V1) and the games for three and
// four of RULES-VARIANTS.md (V2–V7) — with what the lobby may offer for each (seats, packs, targets,
// scoring, the computer's levels, whether it deals a stock, holds an auction or a talon), and their
// names in words. The facts come from the server (js/generated/protocol.js: GAMES from
// backend/engine/variants.py, every game; TABLE_OPTIONS from RoomCreate).
import * as protocol from './generated/protocol.js';
import { t } from './i18n.js';
import { h } from './dom.js';
import { num, optionsSummary } from './ui.js';

const OPT = protocol.TABLE_OPTIONS || {};
const ALL = protocol.GAMES || {};

/** Two-hand 1001: the family's first game (RoomCreate takes a missing `variant` for it). */
export const TWO_HAND = 'twohand';

/** The games the lobby asks for by their `variant` (V2–V7). Two-hand 1001's body names none, as it
 *  always did (RoomCreate takes `variant: "twohand"` too, as room.options says it). */
const AS_VARIANT = (OPT.variant && Array.isArray(OPT.variant.values) ? OPT.variant.values : Object.keys(ALL)).filter((id) => id !== TWO_HAND);

/** The games this client offers, in the order of the rules (two-hand 1001, V2 … V7). */
export const GAME_IDS = Object.keys(ALL).filter((id) => id === TWO_HAND || AS_VARIANT.includes(id));

/** A game is asked for by its `variant` (V2–V7); two-hand 1001's body names none (as it always did). */
export const sentAsVariant = (id) => AS_VARIANT.includes(id);

/** A game's facts: {id, rule, seats, decks, targets, simplified, simplified_target, auction, talon, stock, levels}. */
export function gameInfo(id) {
  const known = id && ALL[id] ? id : TWO_HAND;
  return { id: known, ...ALL[known] };
}

/** The targets offered for a game and scoring (simplified: always 100, ruling V4.9a). */
export function targetsOf(id, scoring = 'original') {
  const game = gameInfo(id);
  return game.simplified && scoring === 'simplified' ? [game.simplified_target] : game.targets;
}

/**
 * The game a room's options, a view's rules or a match's options describe. Rooms and views always
 * name it (protocol 2); a stored match's options name it for every game but two-hand 1001, whose
 * stored rules have never carried a `variant`.
 */
export function gameOf(options = {}) {
  const variant = options && (options.variant ?? options.rules?.variant);
  return variant && ALL[variant] ? variant : TWO_HAND;
}

/** Its name in words: "1001 for two", "1000 for three" … (an unknown game by its id). */
export function gameName(options = {}) {
  const variant = options && (options.variant ?? options.rules?.variant);
  if (variant && !ALL[variant]) return String(variant);
  return t(`lobby.game.${gameOf(options)}`);
}

/** How many seats a room or match has: its options, else its players list, else its game's. */
export function seatCount(options = {}, players = null) {
  const n = Number(options && options.seats);
  if (Number.isInteger(n) && n >= 2) return n;
  if (Array.isArray(players) && players.length >= 2) return players.length;
  return gameInfo(gameOf(options)).seats[0];
}

/** "1000 for three · 2/3": the game and the seats taken of all. */
export function gameAndSeats(room) {
  const n = seatCount(room.options, room.players);
  const taken = (room.players || []).filter(Boolean).length;
  return t('lobby.game_seats', { game: gameName(room.options), taken: num(taken), seats: num(n) });
}

/**
 * The options as chips (ui.js `optionsSummary`), fitted to the game: the options a game has not —
 * marriage scoring by order (ruling V0.5b), a choice of pack, the stock's faced bottom card (R2) —
 * are left out; simplified scoring (V4.9) and Jungfrau (V6) show when on.
 */
export function tableSummary(options = {}) {
  const game = gameInfo(gameOf(options));
  const summary = optionsSummary(options);
  const chip = (label, value, id) => h('div', { class: 'opt-chip', 'data-opt': id }, h('dt', { text: label }), h('dd', { text: value }));
  const drop = (opt) => summary.querySelectorAll(`[data-opt="${opt}"]`).forEach((el) => el.remove());
  if (!game.stock) drop('stock-bottom');
  // RoomCreate: a variant's pack follows its seats and its marriages score by suit (ruling V0.5b)
  if (sentAsVariant(game.id)) ['scoring', 'deck'].forEach(drop);
  if (options.scoring === 'simplified') summary.querySelector('[data-opt="target"]')?.after(chip(t('lobby.scoring'), t('lobby.scoring.simplified.short'), 'game-scoring'));
  if (options.rated === false) summary.querySelector('[data-opt="target"]')?.parentElement?.append(chip(t('opt.rated'), t('common.no'), 'rated'));
  if (options.jungfrau) summary.querySelector('[data-opt="target"]')?.parentElement?.append(chip(t('lobby.jungfrau.short'), t('common.yes'), 'jungfrau'));
  return summary;
}
