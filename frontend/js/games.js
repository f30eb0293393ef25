// The games a table can play: two-hand 1001 (no variant) and the variants V2–V7 of
// RULES-VARIANTS.md, with what the lobby may offer for each (seats, targets, scoring, the
// computer's levels), and their names in words. The facts come from the server
// (js/generated/protocol.js: GAMES from backend/engine/variants.py, TABLE_OPTIONS from RoomCreate).
import * as protocol from './generated/protocol.js';
import { t } from './i18n.js';
import { h } from './dom.js';
import { num, optionsSummary } from './ui.js';

const OPT = protocol.TABLE_OPTIONS || {};
const ALL = protocol.GAMES || {};

/** Two-hand 1001 (R1–R7, V1): the default, no `variant`. */
export const TWO_HAND = 'two';

const offered = OPT.variant && Array.isArray(OPT.variant.values) ? OPT.variant.values.filter((v) => v in ALL) : Object.keys(ALL);

/** The variants this client offers, in the order of the rules (V2 … V7). */
export const VARIANT_IDS = Object.keys(ALL).filter((id) => offered.includes(id));

/** A game's facts: {id, rule, seats: [n…], targets: [t…], simplified, simplified_target, levels: [level…]};
 * two-hand for an unknown id. */
export function gameInfo(id) {
  if (id && ALL[id]) return { id, ...ALL[id] };
  // R5: 1001, 501, 301 (RoomCreate's `target` lists the variants' targets too)
  const targets = OPT.target && Array.isArray(OPT.target.values) ? OPT.target.values.filter((v) => [1001, 501, 301].includes(v)) : [1001, 501, 301];
  const levels = OPT.bot_level && Array.isArray(OPT.bot_level.values) ? OPT.bot_level.values : ['easy', 'medium', 'hard'];
  return { id: TWO_HAND, rule: 'R', seats: [2], targets, simplified: false, levels };
}

/** The targets offered for a game and scoring (simplified: always 100). */
export function targetsOf(id, scoring = 'original') {
  const game = gameInfo(id);
  return game.simplified && scoring === 'simplified' ? [game.simplified_target] : game.targets;
}

/** The game a room's or match's options describe: a variant id or TWO_HAND. */
export function gameOf(options = {}) {
  const variant = options && (options.variant ?? options.rules?.variant);
  return variant && ALL[variant] ? variant : TWO_HAND;
}

/** Its name in words: "1001 for two", "1000 for three" … (an unknown variant by its id). */
export function gameName(options = {}) {
  const variant = options && (options.variant ?? options.rules?.variant);
  if (variant && !ALL[variant]) return String(variant);
  return t(`lobby.game.${gameOf(options)}`);
}

/** How many seats a room or match has: its options, else its players list, else two. */
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
 * The options as chips (ui.js `optionsSummary`), fitted to the game: a variant has no marriage
 * scoring by order (ruling V0.5b) and no choice of pack, but may have simplified scoring (V4.9);
 * Jungfrau (V6) shows when it is on.
 */
export function tableSummary(options = {}) {
  const summary = optionsSummary(options);
  const chip = (label, value, id) => h('div', { class: 'opt-chip', 'data-opt': id }, h('dt', { text: label }), h('dd', { text: value }));
  if (gameOf(options) !== TWO_HAND) {
    summary.querySelectorAll('[data-opt="scoring"], [data-opt="deck"], [data-opt="stock-bottom"]').forEach((el) => el.remove());
    if (options.scoring === 'simplified') summary.querySelector('[data-opt="target"]')?.after(chip(t('lobby.scoring'), t('lobby.scoring.simplified.short'), 'game-scoring'));
  }
  if (options.jungfrau) summary.querySelector('[data-opt="target"]')?.parentElement?.append(chip(t('lobby.jungfrau.short'), t('common.yes'), 'jungfrau'));
  return summary;
}
