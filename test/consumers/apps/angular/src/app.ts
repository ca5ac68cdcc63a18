// The app's shell: the router's outlet. Routes use the hash (`#/headless`), so the static site serves one index.html
// for every page, and the page's query (the service and token the suite passes) stays in `location.search`.
import { Component } from '@angular/core';
import { RouterOutlet, type Routes } from '@angular/router';
import { HeadlessPage } from './headless-page';

/** The elements' page (loaded on demand: the headless pages load no element and no Lit) and the two headless pages. */
export const routes: Routes = [
  { path: '', loadComponent: () => import('./elements-page').then((m) => m.ElementsPage) },
  { path: 'headless', component: HeadlessPage, data: { title: 'Headless uploads', other: '/headless/other' } },
  { path: 'headless/other', component: HeadlessPage, data: { title: 'Other page', other: '/headless' } },
];

@Component({
  selector: 'app-root',
  imports: [RouterOutlet],
  template: `<router-outlet />`,
})
export class App {}
