/** The console's style sheet (served as `/_oz/ui/console.css`): plain, readable, with a visible keyboard focus. */
export const CONSOLE_STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.4; }
body { margin: 0 auto; max-width: 80rem; padding: 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
h2 { font-size: 1.25rem; }
h3 { font-size: 1.05rem; margin-top: 1.5rem; }
nav ul { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; margin: .75rem 0; }
button { font: inherit; padding: .25rem .75rem; cursor: pointer; }
button[aria-current="true"] { font-weight: bold; text-decoration: underline; }
:focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
#status { min-height: 1.4em; margin: .25rem 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { border: 1px solid #8884; padding: .25rem .5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
ol.walk { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; padding: 0; margin: 0; }
ol.walk li { border-radius: .75rem; padding: 0 .5rem; border: 1px solid #8886; }
ol.walk li.walked { background: #2e7d3233; }
ol.walk li.here { background: #1a73e833; font-weight: bold; }
ol.walk li.ahead { opacity: .7; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
dl { display: grid; grid-template-columns: max-content auto; gap: .25rem 1rem; }
dd { margin: 0; }
form { margin: .75rem 0; }
input { font: inherit; }
`;
