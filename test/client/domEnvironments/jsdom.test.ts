// @vitest-environment jsdom
import { describe } from 'vitest';
import { embeddedServerCases } from './embeddedServer.js';

describe('under jsdom', embeddedServerCases);
