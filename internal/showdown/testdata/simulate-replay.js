// replay.js FORMAT SEED ID NAME... — plays a battle of FORMAT in Pokémon
// Showdown's own simulator (npm package pokemon-showdown, MIT), every
// side played by the simulator's RandomPlayerAI, and prints it in the
// shape the replay server answers for /<ID>.json: {id, formatid, format,
// players, log, uploadtime, ...}, log being the spectator stream.
const {BattleStream, getPlayerStreams} = require('pokemon-showdown');
const {RandomPlayerAI} = require('pokemon-showdown/dist/sim/tools/random-player-ai');
const [formatid, seedArg, id, ...names] = process.argv.slice(2);
const seed = seedArg.split(',').map(Number);
(async () => {
  const streams = getPlayerStreams(new BattleStream());
  const sides = names.map((_, i) => 'p' + (i + 1));
  sides.forEach((p, i) => new RandomPlayerAI(streams[p], {seed: seed.map(x => x + i + 1)}).start());
  let log = '';
  let format = '';
  const reading = (async () => {
    for await (const chunk of streams.spectator) {
      log += chunk.startsWith('\n') ? chunk.slice(1) : chunk;
      if (!log.endsWith('\n')) log += '\n';
    }
  })();
  streams.omniscient.write(`>start ${JSON.stringify({formatid, seed})}\n` +
    names.map((n, i) => `>player ${sides[i]} ${JSON.stringify({name: n})}`).join('\n'));
  await reading;
  const tier = log.match(/^\|tier\|(.*)$/m);
  if (tier) format = tier[1];
  process.stdout.write(JSON.stringify({id, formatid, format, players: names, log, uploadtime: 1763900000,
    views: 0, rating: 0, private: 0, password: null}) + '\n');
})();
