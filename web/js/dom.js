// The page's one DOM builder: text goes in through text nodes, textContent and attributes only, never
// as markup.
//
//   el("p", "hint", "Some text")                         <p class="hint">Some text</p>
//   el("button", {type: "button", class: "btn", dataset: {call: "pass"}, on: {click}}, icon, "Pass")
//
// The second argument is the class name (a string) or the element's properties: `class`, `text`
// (its textContent), `dataset`, `on` (event listeners by type), any other name an attribute (true: present,
// false, null or undefined: left out). The children are nodes or strings; null, undefined, false and ""
// are left out.
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  const options = typeof props === "string" ? { class: props } : props ?? {};
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") {
      if (value) node.className = value;
    } else if (name === "text") node.textContent = String(value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name === "on") for (const [type, listener] of Object.entries(value)) node.addEventListener(type, listener);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== false && child !== ""));
  return node;
}
