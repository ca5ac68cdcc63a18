import { fileURLToPath } from 'node:url';

export default {
  mode: 'production',
  context: fileURLToPath(new URL('.', import.meta.url)),
  entry: './src/index.ts',
  output: { path: fileURLToPath(new URL('./dist', import.meta.url)), filename: 'main.js', publicPath: 'auto', clean: true },
  resolve: { extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.js', '.ts'] } },
  module: { rules: [{ test: /\.ts$/, loader: 'ts-loader', options: { transpileOnly: true } }] },
  performance: { hints: false },
};
