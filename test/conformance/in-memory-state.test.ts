import { createInMemoryState } from '../../src/index.js';
import { describeStateConformance } from './state-suite.js';

describeStateConformance('in-memory', ({ now }) => createInMemoryState({ now }));
