import { bootstrapApplication } from '@angular/platform-browser';
import { provideRouter, withHashLocation } from '@angular/router';
import { App, routes } from './app';

bootstrapApplication(App, { providers: [provideRouter(routes, withHashLocation())] }).catch((error: unknown) =>
  console.error(error),
);
