// The positions tables argue about (docs/rules.md, "The positions tables argue about"), each a link.
// What they rule is not written here: the page asks the engine, like for any other position.
export const EXAMPLES = [
  { id: "overtrump-partner", position: "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s" },
  { id: "no-undertrump", position: "trump=h&trick=As,9s,9h&hand=7h,8h,Kd,Ac" },
  { id: "partner-master", position: "trump=h&trick=As,9h,Ks&hand=7h,8h,Ah" },
  { id: "trump-led-no-trump", position: "trump=h&trick=8h,7h,Ah&hand=As,Kd,7c" },
];
