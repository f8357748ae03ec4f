/*
 * KYC onboarding form — browser side.
 *
 * Loaded with `defer` on /onboarding/<token>. Renders the form from
 * GET /onboarding/<token>/form, saves drafts as the person types, uploads
 * documents as soon as they are chosen and submits the answers.
 *
 * The page runs under a strict CSP, so everything is built with DOM APIs
 * (never innerHTML) and no inline handlers or styles are used. The token is
 * only ever used to build the API URLs below.
 */
(function () {
  'use strict';

  const DRAFT_DEBOUNCE_MS = 800;
  const ACCEPTED_TYPES = 'image/jpeg,image/png,image/webp,image/tiff,application/pdf';

  // Visible labels are fixed here rather than taken from the server because
  // tests and assistive technology users rely on their exact wording.
  const LABELS = {
    firstName: 'First name',
    lastName: 'Last name',
    dateOfBirth: 'Date of birth',
    phoneNumber: 'Phone number',
    nationality: 'Nationality',
    'address.line1': 'Address line 1',
    'address.line2': 'Address line 2 (optional)',
    'address.city': 'City',
    'address.region': 'State or region (optional)',
    'address.postalCode': 'Postal code',
    'address.country': 'Country',
    'documents.IDENTITY_DOCUMENT': 'Identity document',
    'documents.PROOF_OF_ADDRESS': 'Proof of address',
  };
  const AUTOCOMPLETE = {
    firstName: 'given-name',
    lastName: 'family-name',
    dateOfBirth: 'bday',
    phoneNumber: 'tel',
    'address.line1': 'address-line1',
    'address.line2': 'address-line2',
    'address.city': 'address-level2',
    'address.region': 'address-level1',
    'address.postalCode': 'postal-code',
    'address.country': 'country',
  };
  const HINTS = {
    phoneNumber: 'International format, e.g. +44 20 7946 0958',
    'documents.IDENTITY_DOCUMENT':
      'A clear photo or scan showing your photo and all four corners. JPEG, PNG, WebP, TIFF or PDF.',
    'documents.PROOF_OF_ADDRESS':
      'A recent utility bill, bank statement or similar showing your name and address. JPEG, PNG, WebP, TIFF or PDF.',
  };
  const INPUT_TYPES = { text: 'text', date: 'date', tel: 'tel' };
  const IDENTITY_TYPES = [
    ['PASSPORT', 'Passport'],
    ['ID_CARD', 'National ID card'],
    ['DRIVERS_LICENSE', 'Driving licence'],
  ];
  // Shown when the link is valid but the form can no longer be filled in.
  const STATE_PANELS = {
    SUBMITTED: ['Already submitted', (c) =>
      `Your details have already been submitted. ${c} will review them and contact you if anything else is needed.`],
    EXPIRED: ['Link expired', (c) => `This link has expired. Please ask ${c} to send you a new one.`],
    REVOKED: ['Link no longer valid', (c) =>
      `This link has been withdrawn. Please contact ${c} if you still need to verify your identity.`],
  };

  const main = document.getElementById('main');
  const token = readToken();
  const apiBase = token ? '/onboarding/' + token : '';

  let formData = null; // the GET /form response
  let companyName = '';
  let formEl = null;
  let submitting = false;
  let finished = false; // true once the form is gone: no more draft saves
  let draftTimer = 0;
  let draftChain = Promise.resolve();
  let lastSavedDraft = '';
  let uploadSeq = 0;
  const latestUpload = {}; // kind -> sequence number of the newest upload
  const pendingUploads = new Map(); // kind -> promise (never rejects)
  const uploadedDocs = new Set(); // kinds the server already holds a file for
  const lastUploaded = {}; // kind → "Uploaded: name (size)" of the file the server holds

  /** The token is the last path segment; anything not base64url is rejected. */
  function readToken() {
    const segments = location.pathname.split('/').filter(Boolean);
    const last = segments.length ? segments[segments.length - 1] : '';
    return /^[A-Za-z0-9_-]+$/.test(last) ? last : null;
  }

  /** Tiny element builder; strings become text nodes, so nothing is parsed as HTML. */
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'text') node.textContent = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child !== null && child !== undefined && child !== false) node.append(child);
    }
    return node;
  }

  /** `address.line1` -> `address-line1`, used in element ids. */
  function slugOf(name) {
    return String(name).replace(/\./g, '-');
  }

  function joinIds(...ids) {
    return ids.filter(Boolean).join(' ') || null;
  }

  function labelFor(name, serverLabel, required) {
    if (LABELS[name]) return LABELS[name];
    return (serverLabel || name) + (required ? '' : ' (optional)');
  }

  function formatSize(bytes) {
    const size = Number(bytes) || 0;
    if (size < 1024 * 1024) return Math.max(1, Math.round(size / 1024)) + ' KB';
    return (size / (1024 * 1024)).toFixed(1) + ' MB';
  }

  function todayIso() {
    const d = new Date();
    const pad = (n) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  }

  class ApiError extends Error {
    constructor(status, message, fields) {
      super(message);
      this.status = status;
      this.fields = fields && typeof fields === 'object' ? fields : null;
    }
  }

  /** JSON API call; throws ApiError carrying the server's message (status 0 = network). */
  async function api(method, path, body, extra) {
    const init = Object.assign(
      { method, headers: { Accept: 'application/json' }, credentials: 'omit', cache: 'no-store' }, extra);
    if (body instanceof FormData) {
      init.body = body; // the browser sets the multipart boundary itself
    } else if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(apiBase + path, init);
    } catch (err) {
      throw new ApiError(0, 'We could not reach the server. Please check your connection and try again.');
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = null; // e.g. an HTML error page from a proxy
    }
    if (!response.ok) {
      const message = data && typeof data.message === 'string' && data.message
        ? data.message
        : `Something went wrong (error ${response.status}). Please try again.`;
      throw new ApiError(response.status, message, data && data.fields);
    }
    return data;
  }

  function panelTitleFor(status) {
    if (status === 404) return 'Link not found';
    if (status === 410) return 'Link expired or already used';
    if (status === 409) return 'This form can no longer be submitted';
    return 'Something went wrong';
  }

  /** Replaces the page content with a message panel (unknown link, expired, …). */
  function showMessage(title, message, options) {
    finished = true;
    clearTimeout(draftTimer);
    const heading = h('h1', { id: 'message-panel-title', tabindex: '-1', text: title });
    const retry = options && options.retry ? h('button', { type: 'button', class: 'button', text: 'Try again' }) : null;
    if (retry) retry.addEventListener('click', () => { finished = false; showLoading(); load(); });
    main.replaceChildren(h('section', { id: 'message-panel', class: 'panel', 'aria-labelledby': 'message-panel-title' },
      heading, h('p', { text: message }), retry));
    document.title = `${title} — ${companyName || 'Identity verification'}`;
    // The panel replaces the whole page (also on load): focus its heading so screen readers announce it.
    heading.focus();
  }

  function showLoading() {
    main.replaceChildren(h('p', { class: 'loading', role: 'status', text: 'Loading your form…' }));
  }

  function showConfirmation() {
    finished = true;
    const heading = h('h1', { id: 'confirmation-title', tabindex: '-1', text: 'Thank you' });
    main.replaceChildren(h('section', { id: 'confirmation', class: 'panel panel--success', 'aria-labelledby': 'confirmation-title' },
      heading,
      h('p', { text: `Your details have been submitted. ${companyName} will review the details `
        + 'and contact you if anything else is needed.' }),
      h('p', { text: 'You can now close this page.' })));
    document.title = `Thank you — ${companyName}`;
    heading.focus();
  }

  function renderField(field, countries) {
    const slug = slugOf(field.name);
    const id = 'field-' + slug;
    const hintId = HINTS[field.name] ? 'hint-' + slug : null;
    const attrs = {
      id, name: field.name, 'data-field': field.name, 'data-describedby': hintId, 'aria-describedby': hintId,
      required: !!field.required, 'aria-required': field.required ? 'true' : null, autocomplete: AUTOCOMPLETE[field.name],
    };
    let control;
    if (field.type === 'country') {
      control = h('select', attrs, h('option', { value: '', text: 'Select a country' }),
        (countries || []).map((c) => h('option', { value: c.code, text: c.name })));
    } else {
      control = h('input', Object.assign({ type: INPUT_TYPES[field.type] || 'text' }, attrs));
      if (field.type === 'date') control.max = todayIso(); // nobody is born in the future
    }
    control.value = field.value || '';
    return h('div', { class: 'field' },
      h('label', { for: id, text: labelFor(field.name, field.label, field.required) }),
      hintId ? h('p', { id: hintId, class: 'hint', text: HINTS[field.name] }) : null,
      control,
      h('p', { id: 'error-' + slug, class: 'error-message', hidden: true }));
  }

  function renderIdentityTypeSelect(doc) {
    const select = h('select', { id: 'field-documentType', name: 'documentType' },
      IDENTITY_TYPES.map(([value, text]) => h('option', { value, text })));
    select.value = doc.documentType || 'PASSPORT';
    // The type travels with the upload, so re-send a still-selected file.
    select.addEventListener('change', () => {
      const input = document.getElementById('field-documents-IDENTITY_DOCUMENT');
      if (input && input.files && input.files[0]) startUpload('IDENTITY_DOCUMENT', input.files[0]);
      else if (uploadedDocs.has('IDENTITY_DOCUMENT')) {
        setUploadStatus('IDENTITY_DOCUMENT', 'Choose the file again so that it is recorded with this document type.');
      }
    });
    return h('div', { class: 'field' }, h('label', { for: 'field-documentType', text: 'Identity document type' }), select);
  }

  function renderDocument(doc) {
    const name = 'documents.' + doc.kind;
    const slug = slugOf(name);
    const hintId = HINTS[name] ? 'hint-' + slug : null;
    const statusId = 'status-' + slug;
    const input = h('input', {
      type: 'file', id: 'field-' + slug, name: 'file-' + doc.kind, accept: ACCEPTED_TYPES, 'data-document': doc.kind,
      required: !!doc.required, 'aria-required': doc.required ? 'true' : null,
      'data-describedby': joinIds(hintId, statusId), 'aria-describedby': joinIds(hintId, statusId),
    });
    input.addEventListener('change', () => {
      if (input.files && input.files[0]) startUpload(doc.kind, input.files[0]);
    });
    const status = h('p', { id: statusId, class: 'upload-status' });
    if (doc.file) {
      uploadedDocs.add(doc.kind);
      lastUploaded[doc.kind] = uploadedText(doc.file);
      status.textContent = lastUploaded[doc.kind];
    }
    return [
      doc.kind === 'IDENTITY_DOCUMENT' ? renderIdentityTypeSelect(doc) : null,
      h('div', { class: 'field' },
        h('label', { for: 'field-' + slug, text: labelFor(name, doc.label, doc.required) }),
        hintId ? h('p', { id: hintId, class: 'hint', text: HINTS[name] }) : null,
        input,
        // One polite live region per document for "Uploading…", "Uploaded: …" and upload errors.
        h('div', { class: 'upload-feedback', 'aria-live': 'polite' }, status,
          h('p', { id: 'error-' + slug, class: 'error-message', hidden: true }))),
    ];
  }

  function renderForm(data) {
    const fields = Array.isArray(data.fields) ? data.fields : [];
    const documents = Array.isArray(data.documents) ? data.documents : [];
    const addressFields = fields.filter((f) => f.name.startsWith('address.'));
    const expires = new Date(data.expiresAt);
    const expiryText = isNaN(expires.getTime()) ? null
      : expires.toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
    const submit = h('button', { type: 'submit', id: 'submit-button', class: 'button', text: 'Submit' });

    formEl = h('form', { id: 'onboarding-form', novalidate: true },
      fields.filter((f) => !f.name.startsWith('address.')).map((f) => renderField(f, data.countries)),
      addressFields.length ? h('fieldset', { class: 'group' }, h('legend', { text: 'Address' }),
        addressFields.map((f) => renderField(f, data.countries))) : null,
      documents.length ? h('fieldset', { class: 'group' }, h('legend', { text: 'Documents' }),
        documents.map(renderDocument)) : null,
      h('div', { class: 'actions' }, submit));

    main.replaceChildren(
      h('h1', { text: 'Verify your identity' }),
      data.invitedName ? h('p', { text: `Hello ${data.invitedName},` }) : null,
      h('p', { class: 'lead', text: `${companyName} has asked you to confirm your identity. It takes about 5 minutes.` }),
      expiryText ? h('p', { class: 'expiry', text: `This link is valid until ${expiryText}. Your answers are saved as you type.` }) : null,
      h('div', { id: 'error-summary', class: 'error-summary', role: 'alert', tabindex: '-1',
        'aria-labelledby': 'error-summary-title', hidden: true }),
      formEl);

    formEl.addEventListener('input', onFieldEdited);
    formEl.addEventListener('change', onFieldEdited);
    formEl.addEventListener('focusout', (event) => { if (event.target.dataset.field) queueDraftSave(); });
    formEl.addEventListener('submit', onSubmit);
    lastSavedDraft = JSON.stringify(collectValues()); // the server already holds these values
  }

  function collectValues() {
    const values = {};
    for (const control of formEl.querySelectorAll('[data-field]')) values[control.dataset.field] = control.value;
    return values;
  }

  function onFieldEdited(event) {
    if (event.target.dataset.field) scheduleDraft();
  }

  function scheduleDraft() {
    if (finished) return;
    clearTimeout(draftTimer);
    draftTimer = setTimeout(queueDraftSave, DRAFT_DEBOUNCE_MS);
  }

  /** Saves are chained so an older request can never overwrite a newer one. */
  function queueDraftSave() {
    clearTimeout(draftTimer);
    draftChain = draftChain.then(() => saveDraft(false));
  }

  /**
   * Sends the current values unless the server already has them. With
   * keepalive (tab hidden or closed) the request outlives the page.
   */
  async function saveDraft(keepalive) {
    if (finished || submitting || !formEl) return;
    const values = collectValues();
    const snapshot = JSON.stringify(values);
    if (snapshot === lastSavedDraft) return;
    if (keepalive) {
      clearTimeout(draftTimer);
      lastSavedDraft = snapshot; // optimistic: the page may be gone before the answer
    }
    try {
      await api('PUT', '/draft', { values }, keepalive ? { keepalive: true } : undefined);
      lastSavedDraft = snapshot;
    } catch (err) {
      if (lastSavedDraft === snapshot) lastSavedDraft = '';
      // Draft saving is a convenience: never bother the person with it.
      console.warn('Draft could not be saved:', err.message);
    }
  }

  function uploadedText(file) {
    return `Uploaded: ${file.fileName} (${formatSize(file.size)})`;
  }

  function setUploadStatus(kind, text) {
    const status = document.getElementById('status-documents-' + kind);
    if (status) status.textContent = text;
  }

  function startUpload(kind, file) {
    const seq = ++uploadSeq;
    latestUpload[kind] = seq;
    setFieldError('documents.' + kind, null);
    setUploadStatus(kind, 'Uploading…');
    const body = new FormData();
    body.append('file', file, file.name);
    let path = '/documents/' + encodeURIComponent(kind);
    if (kind === 'IDENTITY_DOCUMENT') {
      const type = document.getElementById('field-documentType');
      path += '?documentType=' + encodeURIComponent(type ? type.value : 'PASSPORT');
    }
    // Only the newest upload per document may update the UI.
    const task = api('PUT', path, body).then(
      (result) => {
        if (latestUpload[kind] !== seq) return;
        uploadedDocs.add(kind);
        lastUploaded[kind] = uploadedText((result && result.file) || { fileName: file.name, size: file.size });
        setUploadStatus(kind, lastUploaded[kind]);
      },
      (err) => {
        if (latestUpload[kind] !== seq) return;
        // The server still holds the earlier file, if any: say so.
        setUploadStatus(kind, lastUploaded[kind] ? `Still using the earlier file. ${lastUploaded[kind]}` : '');
        setFieldError('documents.' + kind, err.message);
      });
    pendingUploads.set(kind, task);
    task.then(() => { if (pendingUploads.get(kind) === task) pendingUploads.delete(kind); });
  }

  /** Resolves once no upload is running (including uploads started meanwhile). */
  async function waitForUploads() {
    while (pendingUploads.size) await Promise.all(Array.from(pendingUploads.values()));
  }

  /** Server messages like "is required" are fragments: prefix them with the label. */
  function fullMessage(name, message) {
    const label = (LABELS[name] || name).replace(/ \(optional\)$/, '');
    return /^[a-z]/.test(message) ? `${label} ${message}` : message;
  }

  /** Shows (or, with a null message, removes) the inline error of one field. */
  function setFieldError(name, message) {
    const errorEl = document.getElementById('error-' + slugOf(name));
    const control = document.getElementById('field-' + slugOf(name));
    if (!errorEl || !control) return false;
    errorEl.replaceChildren(...(message ? [h('span', { class: 'visually-hidden', text: 'Error: ' }), message] : []));
    errorEl.hidden = !message;
    if (message) control.setAttribute('aria-invalid', 'true');
    else control.removeAttribute('aria-invalid');
    const describedBy = joinIds(control.dataset.describedby, message ? errorEl.id : null);
    if (describedBy) control.setAttribute('aria-describedby', describedBy);
    else control.removeAttribute('aria-describedby');
    control.closest('.field').classList.toggle('field--error', !!message);
    return true;
  }

  /** Shows inline errors plus the summary box, then moves focus to the summary. */
  function showErrors(fields, generalMessage) {
    // List problems in page order, whatever order the server used.
    const order = Array.from(formEl.querySelectorAll('[id^="field-"]'), (c) => c.id);
    const position = (name) => {
      const index = order.indexOf('field-' + slugOf(name));
      return index === -1 ? order.length : index;
    };
    // setFieldError only needs the slug, so the id suffix works as a name here.
    for (const control of formEl.querySelectorAll('[aria-invalid]')) {
      setFieldError(control.id.slice('field-'.length), null);
    }
    const entries = Object.entries(fields || {}).sort((a, b) => position(a[0]) - position(b[0]));
    const items = entries.map(([name, raw]) => {
      const message = fullMessage(name, String(raw || 'is not valid'));
      if (!setFieldError(name, message)) return h('li', { text: message });
      const link = h('a', { href: '#field-' + slugOf(name), text: message });
      link.addEventListener('click', (event) => {
        event.preventDefault(); // keep the URL untouched, just move focus
        const control = document.getElementById('field-' + slugOf(name));
        control.focus();
        control.scrollIntoView({ block: 'center' });
      });
      return h('li', {}, link);
    });
    if (!items.length) items.push(h('li', { text: generalMessage || 'Please check your answers and try again.' }));
    const summary = document.getElementById('error-summary');
    summary.replaceChildren(h('h2', { id: 'error-summary-title', text: 'There is a problem' }), h('ul', {}, items));
    summary.hidden = false;
    summary.focus();
  }

  function setSubmitting(on) {
    submitting = on;
    const button = document.getElementById('submit-button');
    if (!button) return;
    button.disabled = on;
    button.textContent = on ? 'Submitting…' : 'Submit';
    // No upload may replace a file while the submission is checked.
    for (const control of formEl.querySelectorAll('input[type="file"], #field-documentType')) control.disabled = on;
    formEl.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  async function onSubmit(event) {
    event.preventDefault();
    if (submitting || finished) return;
    setSubmitting(true);
    clearTimeout(draftTimer);
    try {
      await waitForUploads();
      await draftChain; // let a running draft save land before the submit, never after it
      // The server checks everything at once (missing documents included), so
      // one attempt shows every problem, and it keeps the entries as a draft.
      await api('POST', '/submit', { values: collectValues() });
      showConfirmation();
    } catch (err) {
      if (err.status === 400) showErrors(err.fields, err.message);
      else if ([404, 410].includes(err.status)) showMessage(panelTitleFor(err.status), err.message);
      // 409 (a document changed meanwhile) and network or server errors: keep the answers, let them retry.
      else showErrors(null, err.message);
    } finally {
      setSubmitting(false);
      if (!finished) scheduleDraft(); // persist anything typed while submitting
    }
  }

  async function load() {
    if (!token) {
      showMessage('Link not found', 'This link is not valid. Please check that you opened the complete link '
        + 'from your invitation.');
      return;
    }
    let data;
    try {
      data = await api('GET', '/form');
    } catch (err) {
      const retry = err.status === 0 || err.status >= 500;
      showMessage(panelTitleFor(err.status), err.message, { retry });
      return;
    }
    formData = data || {};
    const header = document.querySelector('.site-header__name');
    companyName = (formData.branding && formData.branding.companyName)
      || (header && header.textContent.trim()) || 'The organisation';
    const statePanel = STATE_PANELS[formData.state];
    if (statePanel) showMessage(statePanel[0], statePanel[1](companyName));
    else renderForm(formData);
  }

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') saveDraft(true);
  });
  window.addEventListener('pagehide', () => saveDraft(true));

  if (main) load();
})();
