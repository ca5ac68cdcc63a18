// Plain JavaScript, no build: point the uploader at the service named in the URL and report what it uploaded.
const params = new URLSearchParams(location.search);
const element = document.querySelector('store-uploader');
await customElements.whenDefined('store-uploader');
element.setAttribute('base-url', params.get('service') ?? 'http://127.0.0.1:8080');
element.addEventListener('change', () => {
  document.getElementById('ids').textContent = element.value.join(' ');
});
