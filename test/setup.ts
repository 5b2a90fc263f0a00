// Pinned environment for every test: no colors unless a test asks for them.
process.env.NO_COLOR = '1';
delete process.env.FORCE_COLOR;
