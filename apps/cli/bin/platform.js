#!/usr/bin/env node
// The installed command; the code is the built dist/ (npm run build).
require('../dist/main.js');
