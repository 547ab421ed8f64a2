// @vitest-environment happy-dom
import { describe } from 'vitest';
import { embeddedServerCases } from './embeddedServer.js';

describe('under happy-dom', embeddedServerCases);
