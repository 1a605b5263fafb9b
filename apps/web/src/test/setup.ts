import { configure } from '@testing-library/react';

// antd pages in jsdom take seconds on a busy 2-core machine: findBy* and waitFor wait for
// what the page does next up to this long (they return as soon as it is there).
configure({ asyncUtilTimeout: 10_000 });
