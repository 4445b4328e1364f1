// Preloaded (`node --import`) by tests that check which modules a process loads: every module
// URL it loads is appended, a line each, to the file named by COSI_MODULE_LOG.
import { register } from 'node:module';
import { URL } from 'node:url';

register(new URL('./module-log-hooks.mjs', import.meta.url));
