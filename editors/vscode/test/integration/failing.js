// failing.js - a suite that always fails: code-server.sh runs it to check that
// run.js reports a failing suite with a non-zero exit code.
exports.run = () => Promise.reject(new Error('deliberate failure'));
