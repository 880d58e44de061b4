/** Tailwind CSS 4 through its PostCSS plugin (Next.js reads this file for every stylesheet). */
const config = { plugins: { '@tailwindcss/postcss': {} } };
export default config;
