// The pyvista-quake viewer: plays a model's glTF (morph targets and node animations) with three.js.
// Built into ../static/viewer.bundle.js by dev/build_viewer.sh; everything it needs is in the page.
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

function bytesOf(base64) {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out.buffer;
}

// A model's glb, gzip'd by the page (1f 8b): opened by the browser's own DecompressionStream.
function glbOf(base64) {
  const bytes = new Uint8Array(bytesOf(base64));
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return Promise.resolve(bytes.buffer);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}

// The key of a clip at time t: the frame the engines show (they blend towards the next).
function keyAt(times, t) {
  let k = 0;
  while (k + 1 < times.length && times[k + 1] <= t + 1e-6) k++;
  return k;
}

// A level's surfaces as the engines draw them: the texture times the lightmap, and no other light.  The
// glTF carries the lightmap atlas as the occlusion texture on the second coordinate set, and says so in the
// material's extras (three.js's GLTFLoader puts them in userData).  A basic material adds the light map
// times its intensity over pi, so pi gives the product itself; both images are sRGB, as the games' bytes are.
function lightmapped(scene) {
  scene.traverse((object) => {
    const material = object.material;
    if (!object.isMesh || !material || !material.userData.lightmap || !material.aoMap) return;
    const light = material.aoMap;
    light.colorSpace = THREE.SRGBColorSpace;
    object.material = new THREE.MeshBasicMaterial({
      map: material.map, lightMap: light, lightMapIntensity: Math.PI, color: material.color,
      transparent: material.transparent, alphaTest: material.alphaTest, side: material.side, name: material.name,
    });
    material.dispose();
  });
}

// Images a catalogue's pages share: each image's script (assets/KEY.js) sets PyvistaQuakeAssets[KEY] to its
// data URL, and a glTF names it pq-asset:KEY.  Scripts and data URLs load from file:// pages too, and a texture
// from a data URL is the page's own (a file:// image would be cross-origin to WebGL).
function assetManager() {
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url) => {
    const key = /(?:^|\/)pq-asset:([0-9a-f]+)$/.exec(url);
    const assets = globalThis.PyvistaQuakeAssets || {};
    return key && assets[key[1]] ? assets[key[1]] : url;
  });
  return manager;
}

export function start(root, models, info) {
  const view = root.querySelector('.pq-view');
  const play = root.querySelector('.pq-play');
  const slider = root.querySelector('.pq-time');
  const picker = root.querySelector('.pq-animation');
  const skins = root.querySelector('.pq-skin');
  const label = root.querySelector('.pq-frame');
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setSize(view.clientWidth, view.clientHeight);
  // A view that fills the page follows the window's size.
  window.addEventListener('resize', () => {
    renderer.setSize(view.clientWidth, view.clientHeight);
    camera.aspect = view.clientWidth / Math.max(view.clientHeight, 1); camera.updateProjectionMatrix();
  });
  renderer.setClearColor(0xffffff, 1);
  view.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(1, 2, 1.5);
  scene.add(sun);
  const camera = new THREE.PerspectiveCamera(35, view.clientWidth / view.clientHeight, 0.1, 10000);
  const controls = new OrbitControls(camera, renderer.domElement);
  const clock = new THREE.Clock();
  let current = null; // {root, mixer, clips}
  let action = null;
  let actions = []; // what plays: one clip, or a player's legs and torso clips together
  let playing = true;
  // A player: a legs and a torso picker (BOTH_* in both), their animations played together.
  const pair = info.player ? [document.createElement('select'), document.createElement('select')] : null;
  if (pair) {
    pair[0].className = 'pq-legs'; pair[1].className = 'pq-torso';
    pair[0].setAttribute('aria-label', 'legs'); pair[1].setAttribute('aria-label', 'torso');
    info.player.legs.forEach((n) => pair[0].add(new Option(n, n)));
    info.player.torso.forEach((n) => pair[1].add(new Option(n, n)));
    pair[0].value = info.player.legs.includes('LEGS_RUN') ? 'LEGS_RUN' : info.player.legs[0];
    pair[1].value = info.player.torso.includes('TORSO_STAND') ? 'TORSO_STAND' : info.player.torso[0];
    picker.after(pair[0], pair[1]);
    picker.style.display = 'none';
    pair.forEach((select, k) => select.addEventListener('change', () => {
      // BOTH_* moves both parts: the other picker follows, and back to standing when one leaves it.
      const other = pair[1 - k];
      if (select.value.startsWith('BOTH_')) other.value = select.value;
      else if (other.value.startsWith('BOTH_')) other.value = k === 0 ? 'TORSO_STAND' : 'LEGS_IDLE';
      pickPair();
    }));
  }

  // Three-quarter front view (glTF's z is Quake's x, forward; y is up), near enough that the box's
  // eight corners fill 90% of the view's height or width, whichever is reached first.
  function frameBox(box) {
    const centre = box.getCenter(new THREE.Vector3());
    const back = new THREE.Vector3(0.55, 0.35, 1.0).normalize();
    const right = new THREE.Vector3().crossVectors(new THREE.Vector3(0, 1, 0), back).normalize();
    const up = new THREE.Vector3().crossVectors(back, right);
    const tanV = Math.tan(THREE.MathUtils.degToRad(camera.fov / 2)) * 0.9;
    const tanH = tanV * camera.aspect;
    let distance = 0;
    for (let k = 0; k < 8; k++) {
      const corner = new THREE.Vector3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z).sub(centre);
      const ahead = corner.dot(back);
      distance = Math.max(distance, ahead + Math.abs(corner.dot(up)) / tanV, ahead + Math.abs(corner.dot(right)) / tanH);
    }
    const size = box.getSize(new THREE.Vector3()).length() || 1;
    distance = distance || size;
    camera.position.copy(centre).add(back.multiplyScalar(distance));
    camera.near = size / 100; camera.far = distance + size * 100; camera.updateProjectionMatrix();
    controls.target.copy(centre); controls.update();
    camera.userData.framed = true;
  }

  // A level: seen from where a player first stands (info.eye: the eye and a point ahead, glTF's axes), looking
  // around that point as the mouse drags.
  function fromEye(box) {
    const [x, y, z, tx, ty, tz] = info.eye;
    camera.position.set(x, y, z);
    const size = box.getSize(new THREE.Vector3()).length() || 1;
    camera.near = 1; camera.far = size * 4; camera.updateProjectionMatrix();
    controls.target.set(tx, ty, tz); controls.update();
    camera.userData.framed = true;
  }

  // One frame and nothing to play (a level, a still model): no play button, time slider or frame label.
  if (info.still) for (const element of [play, slider, label]) element.style.display = 'none';

  function show(index) {
    glbOf(models[index]).then((glb) => new GLTFLoader(assetManager()).parse(glb, '', (gltf) => {
      if (current) scene.remove(current.root);
      lightmapped(gltf.scene);
      const mixer = new THREE.AnimationMixer(gltf.scene);
      current = { root: gltf.scene, mixer, clips: gltf.animations, parser: gltf.parser };
      scene.add(gltf.scene);
      if (info.eye && !camera.userData.framed) {
        const b = info.bounds;
        fromEye(b ? new THREE.Box3(new THREE.Vector3(b[0], b[1], b[2]), new THREE.Vector3(b[3], b[4], b[5])) : new THREE.Box3().setFromObject(gltf.scene));
      } else if (index === 0 || !camera.userData.framed) {
        // The page's box covers the start animation's frames (three.js's own ignores morph targets).
        const b = info.bounds;
        const box = b ? new THREE.Box3(new THREE.Vector3(b[0], b[1], b[2]), new THREE.Vector3(b[3], b[4], b[5]))
          : new THREE.Box3().setFromObject(gltf.scene);
        frameBox(box);
      }
      const chosen = picker.value;
      picker.innerHTML = '';
      for (const clip of gltf.animations) picker.add(new Option(clip.name, clip.name));
      if (chosen && gltf.animations.some((c) => c.name === chosen)) picker.value = chosen;
      else {
        // Start on the rest animation the thumbnails show, else on one that moves (a player's first, BOTH_DEATH1, may hold one pose).
        const rest = gltf.animations.find((c) => c.name === info.start);
        const moving = rest || gltf.animations.find((c) => c.duration > 0);
        if (moving) picker.value = moving.name;
      }
      picker.style.display = gltf.animations.length && !pair ? '' : 'none';
      if (pair) pickPair(); else pick(picker.value);
    }, (error) => { label.textContent = `cannot show the model: ${error}`; console.error(error); }))
      .catch((error) => { label.textContent = `cannot open the model: ${error}`; console.error(error); });
  }

  function play_(names) {
    if (!current) return;
    current.mixer.stopAllAction();
    const clips = [...new Set(names)].map((n) => current.clips.find((c) => c.name === n)).filter(Boolean);
    actions = clips.map((clip) => current.mixer.clipAction(clip).play());
    action = actions[0] || null;
    const longest = Math.max(0, ...clips.map((c) => c.duration));
    slider.max = longest;
    slider.step = Math.max(longest / 1000, 0.001);
    update(0);
  }

  function pick(name) { play_([name]); }

  function pickPair() { play_([pair[0].value, pair[1].value]); }

  function describe(name, t) {
    const frames = info.clips[name] || info.clips[Object.keys(info.clips)[0]];
    const named = name ? `${name}: ` : '';
    if (!frames) return `${named}frame 0`;
    const k = keyAt(frames.times, t);
    return `${named}frame ${frames.frames[k]} ${frames.names[k] || ''}`.trim();
  }

  function update(dt) {
    if (!current) return;
    if (action && playing) current.mixer.update(dt);
    const t = action ? action.time : 0;
    slider.value = t;
    // A model of one frame has no animation to pick: its one frame is labelled all the same.
    const shown = pair ? [...new Set([pair[0].value, pair[1].value])] : [picker.value];
    const timeOf = (n) => (actions.find((a) => a.getClip().name === n) || { time: t }).time;  // each loops on its own
    label.textContent = `${shown.map((n) => describe(n, timeOf(n))).join(' · ')} (${t.toFixed(2)} s)`;
  }

  play.addEventListener('click', () => { playing = !playing; play.textContent = playing ? 'Pause' : 'Play'; });
  slider.addEventListener('input', () => {
    if (!action) return;
    playing = false; play.textContent = 'Play';
    for (const a of actions) a.time = Math.min(parseFloat(slider.value), a.getClip().duration);
    current.mixer.update(0); update(0);
  });
  picker.addEventListener('change', () => pick(picker.value));
  // A skin picker: each skin's images put on the primitives that wear them (info.skinTable), textures made
  // once each as GLTFLoader makes a skin's (nearest texels, repeated, sRGB, not flipped).
  const skinTextures = new Map();
  function skinTexture(index) {
    if (!skinTextures.has(index)) {
      const image = new Image();
      const texture = new THREE.Texture(image);
      image.onload = () => { texture.needsUpdate = true; };
      image.src = info.skinImages[index];  // a data URL
      texture.flipY = false;
      texture.colorSpace = THREE.SRGBColorSpace;
      texture.magFilter = THREE.NearestFilter; texture.minFilter = THREE.NearestFilter;
      texture.wrapS = THREE.RepeatWrapping; texture.wrapT = THREE.RepeatWrapping;
      skinTextures.set(index, texture);
    }
    return skinTextures.get(index);
  }
  function wear(k) {
    if (!current || !current.parser) return;
    const table = info.skinTable[k];
    current.root.traverse((object) => {
      const where = object.isMesh && current.parser.associations.get(object);
      if (!where || where.primitives === undefined) return;
      const image = table[`${where.meshes}/${where.primitives}`];
      object.material.map = image === undefined ? null : skinTexture(image);
      object.material.needsUpdate = true;
    });
  }
  if (skins) {
    if (info.skins.length > 1) {
      info.skins.forEach((name, k) => skins.add(new Option(name, String(k))));
      skins.addEventListener('change', () => (info.skinTable ? wear(parseInt(skins.value, 10)) : show(parseInt(skins.value, 10))));
    } else {
      skins.style.display = 'none';
    }
  }
  function loop() {
    requestAnimationFrame(loop);
    update(clock.getDelta());
    renderer.render(scene, camera);
  }
  show(0);
  loop();
}
