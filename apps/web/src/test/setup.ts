import { configure } from '@testing-library/react';

// antd pages in jsdom take seconds, and many more on a 2-core machine shared with other work:
// findBy* and waitFor wait up to this long for what the page does next (they return as soon
// as it is there; only a failing test waits it out).
configure({ asyncUtilTimeout: 30_000 });
