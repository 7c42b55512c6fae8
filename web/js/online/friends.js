// The lobby of a friends' table (referee/PROTOCOL.md, "Friends' tables"): the four seats around the table as
// the player sits (themselves at the bottom, their partner opposite at the top, the opponents left and right),
// who sits where, whether a seat is a person, empty (a bot will sit there) or away, and who is the host; a
// free seat taken with its button; Start for the host; the code and Copy invite link; Leave. Every control is
// a button: touch and keyboard alike. online.js holds the connection and hands each `lobby` message to show().
//
// Also the names at the table once the match runs (seatNames): a person's name, "Bot for …" for a seat a
// bot took over, and who is away.
import { el } from "../dom.js";
import { applyTranslations, t } from "../i18n.js";

// Places around the table, by position from the player (0: the player, 1: right, 2: opposite, 3: left), in
// the order of the grid (top row, then the two sides, then the player).
const GRID = [2, 3, 1, 0];

function place(seat, me) {
  return (seat - me + 4) % 4;
}

// seat -> the name the table shows for every other seat: a person's own name (the seat's place when they
// gave none), "Bot for Ana" where a bot took a person's seat, and "(away)" while a person's connection is
// lost; a bot from the start keeps the seat's place.
export function seatNames(seats, me) {
  const names = {};
  seats.forEach((seat, index) => {
    if (index === me) return;
    const name = seat.name || t(`table.seat.${place(index, me)}`);
    if (seat.player === "bot") {
      if (seat.name) names[index] = t("online.bot_for", { name: seat.name });
    } else if (!seat.connected) names[index] = t("friends.away_name", { name });
    else if (seat.name) names[index] = seat.name;
  });
  return names;
}

// The name of a seat for a sentence ("Bob is back"): the person's name, else the seat's place.
export function seatLabel(seats, seat, me) {
  return seats[seat]?.name || t(`table.seat.${place(seat, me)}`);
}

export class FriendsLobby {
  #root;
  #seats; // the four <li>, in GRID order
  #lobby = null; // the last `lobby` message
  #actions; // {sit(seat), begin(), leave(), copy()}

  constructor(actions) {
    this.#actions = actions;
    this.#root = this.#build();
  }

  get root() { return this.#root; }
  get lobby() { return this.#lobby; }

  show(lobby, link) {
    this.#lobby = lobby;
    if (link !== undefined) this.#root.querySelector("#friends-link").value = link;
    this.#root.querySelector("#friends-copied").textContent = "";
    this.draw();
  }

  // Draws the lobby again (a new message, or the language changed).
  draw() {
    const lobby = this.#lobby;
    if (!lobby) return;
    const me = lobby.seat;
    const { variant, target, level } = lobby.settings;
    this.#root.querySelector("#friends-code").textContent = lobby.code;
    this.#root.querySelector(".friends-seats").setAttribute("aria-label", t("friends.seats_label"));
    this.#root.querySelector("#friends-options").textContent = t("friends.options", { variant, target, level });
    GRID.forEach((pos, i) => this.#drawSeat(this.#seats[i], (me + pos) % 4, pos, lobby));
    const people = lobby.seats.filter((s) => s.player === "human").length;
    const host = lobby.host === me;
    const start = this.#root.querySelector("#btn-friends-start");
    start.hidden = !host;
    start.disabled = people < 2;
    const line = this.#root.querySelector("#friends-status");
    if (host) line.textContent = people < 2 ? t("friends.need_two") : t("friends.ready", { n: people, bots: 4 - people });
    else line.textContent = t("friends.waiting_host", { name: seatLabel(lobby.seats, lobby.host, me) });
  }

  #drawSeat(node, seat, pos, lobby) {
    const info = lobby.seats[seat];
    node.dataset.seat = String(seat);
    node.dataset.pos = String(pos);
    node.dataset.player = info.player;
    node.dataset.connected = String(info.connected);
    const name = info.player === "empty" ? t("friends.empty") : info.name || t("friends.no_name");
    const nameNode = node.querySelector(".friends-name");
    nameNode.textContent = name;
    nameNode.title = name;
    const where = { place: t(`table.seat.${pos}`) };
    node.querySelector(".friends-place").textContent = pos === 0 ? t("friends.you")
      : t(pos === 2 ? "friends.partner_place" : "friends.opponent_place", where);
    const notes = [];
    if (seat === lobby.host) notes.push(t("friends.host"));
    if (info.player === "human" && !info.connected) notes.push(t("friends.away"));
    if (info.player === "empty") notes.push(t("friends.bot_if_empty"));
    node.querySelector(".friends-note").textContent = notes.join(" · ");
    const sit = node.querySelector(".friends-sit");
    sit.hidden = info.player !== "empty";
    sit.setAttribute("aria-label", `${t("friends.sit")} – ${where.place}`); // the visible words first
  }

  #build() {
    this.#seats = GRID.map(() => {
      const sit = el("button", { type: "button", class: "btn small friends-sit", "data-i18n": "friends.sit" });
      const item = el("li", "friends-seat",
        el("span", "friends-place"), el("strong", "friends-name"), el("span", "friends-note"), sit);
      sit.addEventListener("click", () => this.#actions.sit(Number(item.dataset.seat)));
      return item;
    });
    const root = el("div", { class: "online-friends", "aria-labelledby": "friends-title" },
      el("h2", { id: "friends-title", "data-i18n": "friends.title" }),
      el("p", { id: "friends-options", class: "friends-options" }),
      el("ol", { class: "friends-seats" },
        ...this.#seats),
      el("p", { class: "friends-partners", "data-i18n": "friends.partners" }),
      el("p", { id: "friends-status", class: "online-status", role: "status", "aria-live": "polite" }),
      el("button", { type: "button", id: "btn-friends-start", class: "btn primary big", "data-i18n": "friends.start",
        on: { click: () => this.#actions.begin() } }),
      el("div", { class: "online-invite" },
        el("p", { class: "online-code" }, el("span", { "data-i18n": "online.code_label" }), " ",
          el("strong", { id: "friends-code" })),
        el("label", { for: "friends-link", class: "visually-hidden", "data-i18n": "online.link_label" }),
        el("input", { id: "friends-link", readonly: true }),
        el("button", { type: "button", id: "btn-friends-copy", class: "btn", "data-i18n": "online.copy",
          on: { click: () => this.#actions.copy() } }),
        el("p", { id: "friends-copied", class: "online-copied", role: "status" })),
      el("button", { type: "button", id: "btn-friends-leave", class: "btn ghost", "data-i18n": "friends.leave",
        on: { click: () => this.#actions.leave() } }));
    applyTranslations(root);
    return root;
  }

  // The result of Copy invite link, under it.
  copied(key) {
    this.#root.querySelector("#friends-copied").textContent = t(key);
  }
}
