import { defineSuite } from './suite.js';

await defineSuite('worker file 1');
